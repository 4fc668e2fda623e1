package io.statesync.topology;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/** Record header names that are part of the contract. */
public final class StatesyncHeaders {

    /** Set by writers on statesync.desired; copied onto the admission event that answers it. */
    public static final String REQUEST_ID = "statesync.request.id";
    /**
     * Set by a writer that awaits the answer: an id the writer generated for this one record (the REST API uses 128
     * random bits), copied onto the record of the admission event that answers it. Answers are matched by this id and
     * never by {@link #REQUEST_ID}, which a client chooses and may share between writes.
     */
    public static final String ANSWER_ID = "statesync.answer.id";
    /**
     * Set by a writer that awaits the answer on the last record it writes to a partition for now: admission then asks
     * for a commit instead of letting the answer wait for commit.interval.ms. A bulk write marks one record per
     * partition, so its documents share one transaction.
     */
    public static final String COMMIT_REQUESTED = "statesync.commit.requested";
    /**
     * CAS precondition for a delete (a tombstone has no value to carry expectedResourceVersion), and for a status-only
     * report (an observation has no expectedResourceVersion of its own).
     */
    public static final String EXPECTED_RESOURCE_VERSION = "statesync.expected.resource.version";
    /**
     * What a delete (a tombstone) does to the resource's dependents: Background (the default), Foreground or Orphan,
     * as Kubernetes' DeleteOptions.propagationPolicy.
     */
    public static final String PROPAGATION_POLICY = "statesync.propagation.policy";

    /**
     * Set on statesync.observed by a writer of the status subresource: the report carries a status and conditions but
     * no observed spec, so admission keeps the last observed spec instead of taking the resource as absent, and
     * refuses the report (404) when the resource does not exist. Such a report may carry {@link #ANSWER_ID},
     * {@link #REQUEST_ID}, {@link #COMMIT_REQUESTED} and {@link #EXPECTED_RESOURCE_VERSION} as a desired write does.
     */
    public static final String OBSERVED_STATUS_ONLY = "statesync.observed.status.only";

    /** On statesync.resources: the fields a view indexes without decoding the value ({@link ResourceSummary}). */
    public static final String RESOURCE_SUMMARY = "statesync.resource.summary";

    public static final String DLQ_ERROR_CLASS = "statesync.dlq.error.class";
    public static final String DLQ_ERROR_REASON = "statesync.dlq.error.reason";
    public static final String DLQ_ERROR_MESSAGE = "statesync.dlq.error.message";
    public static final String DLQ_SOURCE_TOPIC = "statesync.dlq.source.topic";
    public static final String DLQ_SOURCE_PARTITION = "statesync.dlq.source.partition";
    public static final String DLQ_SOURCE_OFFSET = "statesync.dlq.source.offset";

    private StatesyncHeaders() {
    }

    public static String lastString(Headers headers, String name) {
        if (headers == null) {
            return null;
        }
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
