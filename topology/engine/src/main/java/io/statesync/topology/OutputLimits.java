package io.statesync.topology;

import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.config.AppConfig;
import io.statesync.topology.internal.BoundedSerializer;
import io.statesync.topology.internal.OutputBudget;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The largest record statesync's stream threads may have to produce, derived from {@code spec.max.bytes} in this one
 * place: the output topics and the state changelogs are created with it as {@code max.message.bytes}, the stream
 * threads' producers get it as {@code max.request.size}, and admission refuses a write whose outputs could pass it
 * (docs/topology.md, "Record sizes", has the arithmetic).
 *
 * <p>With S the limit of one input record (a desired write, and also an observation), the largest output is the state
 * changelog record of a key. It carries the Resource (its metadata and spec, which came in one desired record: S; its
 * status.diff, each differing field's desired and observed value with its path, and the reported status, which is
 * the observation's status as status.diff's observed side is part of its state: S + S + the paths), the latest
 * observation (S), the last-applied spec (S) and the last correction (the desired spec again and a patch of the
 * same fields: S + S + the paths). Six copies of S, plus a fixed allowance for what does not grow with the input
 * (conditions, timestamps, ids, headers), hold all of it except the paths repeated per field, which admission adds up
 * for each write before it accepts it.
 */
public final class OutputLimits {

    /** The copies of one input record the largest output may carry. */
    public static final int INPUT_COPIES = 6;
    /** What an output carries that does not grow with the input: conditions, ids, timestamps, the wire prefix. */
    public static final int FIXED_BYTES = 1_048_576;

    /** What a record carries besides its value: the key, headers and the record's framing. */
    public static final int KEY_AND_HEADERS_BYTES = 65_536;

    private OutputLimits() {
    }

    /** The largest record the stream threads produce: {@code INPUT_COPIES * spec.max.bytes + FIXED_BYTES}. */
    public static int maxRecordBytes(AppConfig config) {
        long bytes = (long) INPUT_COPIES * config.getInt(AppConfig.SPEC_MAX_BYTES) + FIXED_BYTES;
        return (int) Math.min(Integer.MAX_VALUE - 1024, bytes);
    }

    /**
     * {@code serializer}, refusing a value that could make the record pass {@link #maxRecordBytes}: the refusal is a
     * serialization error, which the production exception handler turns into a dead letter of the input while the
     * transaction is still whole, for outputs of writes and of observations alike.
     */
    public static <T> Serializer<T> bounded(Serializer<T> serializer, AppConfig config) {
        return new BoundedSerializer<>(serializer, maxRecordBytes(config) - KEY_AND_HEADERS_BYTES);
    }

    /**
     * Admission's refusal of a write whose outputs could pass {@link #maxRecordBytes}, or null: a dry run applies the
     * same check as the owning task, so it answers what the write would.
     */
    public static WriteAdmission.Refused refusal(AppConfig config, DesiredState effective, ObservedState observed) {
        return new OutputBudget(config).check(effective, observed);
    }
}
