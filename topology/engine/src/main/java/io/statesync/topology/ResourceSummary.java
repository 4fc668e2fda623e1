package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * What a reader of statesync.resources needs to index a record without decoding it, carried in the
 * {@link StatesyncHeaders#RESOURCE_SUMMARY} header as {@code <resourceVersion>;<syncStatus>;<0|1 labelled>}.
 *
 * <p>Why: every REST instance reads the whole topic into its view at start, and decoding every Avro record to learn
 * three fields would be most of a restart. The header is written with the value by the same processor, so the two
 * agree; a record without it (written by a version that did not set it) is decoded instead.
 *
 * @param version the resourceVersion as a number, -1 when it is not one
 * @param syncStatus null when the resource has no status
 */
public record ResourceSummary(long version, SyncStatus syncStatus, boolean labelled) {

    private static final SyncStatus[] STATUSES = SyncStatus.values();

    public static ResourceSummary of(Resource r) {
        Map<String, String> labels = r.getMetadata().getLabels();
        ResourceStatus status = r.getStatus();
        return new ResourceSummary(parseVersion(r.getMetadata().getResourceVersion()),
            status == null ? null : status.getSyncStatus(), labels != null && !labels.isEmpty());
    }

    public byte[] encode() {
        return (version + ";" + (syncStatus == null ? "" : syncStatus.name()) + ";" + (labelled ? '1' : '0'))
            .getBytes(StandardCharsets.UTF_8);
    }

    /** The summary in {@code headers}, or null when there is none or it does not parse (then decode the value). */
    public static ResourceSummary from(Headers headers) {
        Header h = headers == null ? null : headers.lastHeader(StatesyncHeaders.RESOURCE_SUMMARY);
        return h == null || h.value() == null ? null : decode(new String(h.value(), StandardCharsets.UTF_8));
    }

    static ResourceSummary decode(String s) {
        int a = s.indexOf(';');
        int b = s.indexOf(';', a + 1);
        if (a < 0 || b < 0 || b != s.length() - 2 || (s.charAt(b + 1) != '0' && s.charAt(b + 1) != '1')) {
            return null;
        }
        String digits = s.substring(0, a);
        long version = digits.equals("-1") ? -1 : parseVersion(digits);
        if (version < 0 && !digits.equals("-1")) {
            return null;
        }
        String name = s.substring(a + 1, b);
        SyncStatus status = null;
        if (!name.isEmpty()) {
            for (SyncStatus v : STATUSES) {
                if (v.name().equals(name)) {
                    status = v;
                }
            }
            if (status == null) {
                return null;
            }
        }
        return new ResourceSummary(version, status, s.charAt(b + 1) == '1');
    }

    /** Digits only, at most 18 of them, as resourceVersions are; -1 otherwise. */
    public static long parseVersion(String version) {
        if (version == null || version.isEmpty() || version.length() > 18) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < version.length(); i++) {
            char c = version.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
