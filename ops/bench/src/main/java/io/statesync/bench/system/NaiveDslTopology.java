package io.statesync.bench.system;

import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.reconciler.Differ;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.Trees;
import io.statesync.schemas.Values;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The baseline: what a user would write without statesync. Two KTables (default materialisation, so two RocksDB
 * stores with changelogs), a left join, the diff in {@code mapValues}, and the non-empty diffs to a topic. No
 * admission, status, generations, retries or timers: it does strictly less work than statesync.
 */
public final class NaiveDslTopology {

    private NaiveDslTopology() {
    }

    public static String outputTopic(TopicNames topics) {
        return topics.prefix() + "naive-corrections";
    }

    public static Topology build(TopicNames topics, TopologySerdes serdes) {
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, DesiredState> desired = builder.table(topics.desired(), Consumed.with(Serdes.String(), serdes.desired()));
        KTable<String, ObservedState> observed = builder.table(topics.observed(), Consumed.with(Serdes.String(), serdes.observed()));
        desired.leftJoin(observed, Joined::new)
            .toStream()
            .mapValues(NaiveDslTopology::diff)
            .filter((key, diff) -> diff != null)
            .to(outputTopic(topics), Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    private static String diff(Joined joined) {
        if (joined == null || joined.desired() == null) {
            return null;
        }
        Object want = Trees.normalize(Values.toJava(joined.desired().getSpec()));
        Object have = joined.observed() == null || joined.observed().getState() == null
            ? null : Trees.normalize(Values.toJava(joined.observed().getState()));
        var diffs = Differ.diff(want, have, ReconcilePolicy.defaults());
        return diffs.isEmpty() ? null : diffs.toString();
    }

    private record Joined(DesiredState desired, ObservedState observed) {
    }
}
