package io.statesync.bench.system;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * How many commits one Kafka Streams application's stream threads have made, from their {@code commit-total} thread
 * metric. Under exactly-once each commit ends a transaction, so commits per write is the cost that commits on request
 * add, counted rather than inferred from CPU time, which moves with everything else on the machine.
 */
final class StreamCommits {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private StreamCommits() {
    }

    /** The commits of the live stream threads whose id contains {@code applicationId}; 0 for an empty id. */
    static long total(String applicationId) {
        if (applicationId.isEmpty()) {
            return 0;
        }
        try {
            long total = 0;
            for (ObjectName name : SERVER.queryNames(new ObjectName("kafka.streams:type=stream-thread-metrics,*"), null)) {
                if (name.getKeyProperty("thread-id").contains(applicationId) && hasCommitTotal(name)) {
                    total += ((Number) SERVER.getAttribute(name, "commit-total")).longValue();
                }
            }
            return total;
        } catch (JMException e) {
            throw new IllegalStateException("cannot read the stream threads' commit-total", e);
        }
    }

    /** Not every bean of this type carries the count: Kafka Streams registers some thread metrics under other tags. */
    private static boolean hasCommitTotal(ObjectName name) throws JMException {
        for (MBeanAttributeInfo attribute : SERVER.getMBeanInfo(name).getAttributes()) {
            if (attribute.getName().equals("commit-total")) {
                return true;
            }
        }
        return false;
    }
}
