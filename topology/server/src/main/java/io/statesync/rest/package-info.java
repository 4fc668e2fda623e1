/**
 * The REST API of docs/contract.md, section 7. Choices the contract leaves open, and why:
 * <ul>
 *   <li><b>Errors</b> are always {@code {"code","reason","message"}} ({@link io.statesync.rest.ApiError}); a 409 adds
 *       {@code resourceVersion} (also in {@code ETag}) so that a client can retry without another read; a 503 carries
 *       {@code Retry-After}.</li>
 *   <li><b>Writes</b> produce to statesync.desired with an answer id the server generates per write and the request
 *       id ({@code X-Request-Id} when the client sends one, else a UUID, echoed on the answer), and wait for the
 *       admission event carrying that answer id on statesync.events; the request id never matches answers. Accepted
 *       answers 201 (created) or 200 ({@code X-Statesync-Admission} gives Created, SpecChanged, MetadataChanged or
 *       NoOp); Conflict answers 409; Invalid answers 400, or 404 for a delete of a missing resource; no answer within
 *       admission.timeout.ms answers 504 with an unknown outcome and how to find out (docs/rest.md says per verb when
 *       re-sending is safe).</li>
 *   <li><b>Point reads</b> ({@code GET} of one resource) are answered from the reading instance's own
 *       read_committed resource view. {@code ?resourceVersion=X} or {@code If-None-Match: "X"} (304 while X is
 *       current) ask for X or newer, and the instance that answered a write remembers its version for the key; when
 *       the view has not reached that, or for {@code ?consistency=owner}, the view first catches up with the committed
 *       end of statesync.resources, read by a query sent after the read arrived. {@code /diff} and
 *       {@code /diagnosis}, and point reads the view cannot answer, use interactive queries: the active owner of the
 *       key answers, other instances forward once ({@code X-Statesync-Served-By} names who answered); when the owner
 *       is unknown or unreachable a local standby within max.stale.lag answers ({@code X-Statesync-Stale: true}),
 *       otherwise 503 with Retry-After. {@code X-Statesync-Source} says which ({@code view} or {@code store});
 *       docs/rest.md gives the contract.</li>
 *   <li><b>Lists and watches</b> are served from each instance's read_committed view of statesync.resources
 *       ({@link io.statesync.view.ResourceView}), because only a reader that applies that log in order can return a
 *       list together with the exact position it reflects.
 *       The position ({@link io.statesync.view.WatchPosition}) is per-partition offsets, opaque base64url JSON. Every
 *       page of a paginated list carries the first page's position, so a watch from it may repeat a change already seen
 *       on a later page but never misses one. A list first waits (up to 5 s) until the view has read the committed end
 *       of the topic, so it shows writes accepted before it.</li>
 *   <li><b>Watch</b> is Server-Sent Events; each event's {@code id} is a cursor just after it
 *       ({@link io.statesync.view.WatchCursor}: a position, and during the initial events the last key sent), so
 *       resuming from the last id, as {@code resourceVersion} or {@code Last-Event-ID}, gives no gap and no duplicate.
 *       The first BOOKMARK of a watch ends its initial events ({@code k8s.io/initial-events-end}). A position that
 *       cannot be replayed is 410 Gone, and the client re-lists: one
 *       too old (before the log start offset, or before this instance's change ring of
 *       {@value io.statesync.view.ResourceView#RING_CAPACITY} changes), of another partition count, or a token
 *       that does not decode. A filtered watch sees an object that starts matching as ADDED and one that stops matching
 *       as DELETED, as in Kubernetes. BOOKMARKs come every watch.bookmark.interval.ms. A client that stops reading is
 *       disconnected after watch.send.timeout.ms, one that falls watch.max.queue changes behind at once.</li>
 *   <li><b>Auth</b>: probes, {@code /metrics}, {@code /openapi.json} and the web UI's static files ({@code /},
 *       {@code /ui/}) are open; everything else needs a reader token, and PUT, PATCH and DELETE need writer.
 *       {@code /api/v1/whoami} tells a client which role its token has.</li>
 * </ul>
 */
package io.statesync.rest;
