package io.statesync.registry.internal;

import java.util.ArrayList;
import java.util.List;

import io.statesync.registry.CompatibilityLevel;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;

/** The registry's compatibility rules, decided by Avro's own reader/writer resolution. */
public final class AvroCompatibility {

    private AvroCompatibility() {
    }

    /**
     * What stops a candidate from following the existing versions under a level.
     *
     * @param existing the subject's versions, oldest first
     * @return one line per problem; empty when the candidate is compatible
     */
    public static List<String> problems(CompatibilityLevel level, Schema candidate, List<Schema> existing) {
        List<String> out = new ArrayList<>();
        if (existing.isEmpty() || level == CompatibilityLevel.NONE) {
            return out;
        }
        List<Schema> against = level.isTransitive() ? existing : List.of(existing.get(existing.size() - 1));
        for (Schema earlier : against) {
            if (level.checksBackward()) {
                describe(out, "new schema cannot read data written with an earlier one", candidate, earlier);
            }
            if (level.checksForward()) {
                describe(out, "an earlier schema cannot read data written with the new one", earlier, candidate);
            }
        }
        return out;
    }

    private static void describe(List<String> out, String what, Schema reader, Schema writer) {
        var result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getResult();
        for (Incompatibility i : result.getIncompatibilities()) {
            out.add(what + ": " + i.getType() + " at " + i.getLocation() + " (" + i.getMessage() + ")");
        }
    }
}
