package io.statesync.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics of docs/contract.md, section 2, when missing and fails fast when existing ones would break
 * co-partitioning or compaction semantics, because either mistake silently corrupts the pipeline later.
 */
public final class TopicManager {

    private static final Logger LOG = LoggerFactory.getLogger(TopicManager.class);
    private static final long TIMEOUT_S = 60;
    private static final long METADATA_WAIT_MS = 15_000;

    private final Admin admin;
    private final TopicNames topics;
    private final int partitions;
    private final short replicationFactor;
    private int maxMessageBytes;

    public TopicManager(Admin admin, TopicNames topics, int partitions, short replicationFactor) {
        this.admin = admin;
        this.topics = topics;
        this.partitions = partitions;
        this.replicationFactor = replicationFactor;
    }

    /**
     * The {@code max.message.bytes} the topics must allow ({@link OutputLimits#maxRecordBytes}): created topics get it,
     * and an existing topic with less is raised to it at startup, since one record it refused would stop its
     * partition's task. 0 (the default) leaves the broker's limit alone.
     */
    public TopicManager withMaxMessageBytes(int bytes) {
        this.maxMessageBytes = bytes;
        return this;
    }

    /** Creates what is missing (when allowed) and verifies everything; throws {@link IllegalStateException} on a mismatch. */
    public void ensureTopics(boolean create) {
        Set<String> existing = await(admin.listTopics().names());
        List<NewTopic> missing = new ArrayList<>();
        for (String t : topics.all()) {
            if (!existing.contains(t)) {
                missing.add(newTopic(t));
            }
        }
        if (!missing.isEmpty()) {
            if (!create) {
                throw new IllegalStateException("Missing topics " + names(missing) + " and topic.create=false");
            }
            createAll(missing);
        }
        verifyWithRetry();
    }

    /** Freshly created topics can take a moment to appear in every broker's metadata; that is not a mismatch. */
    private void verifyWithRetry() {
        long deadline = System.currentTimeMillis() + METADATA_WAIT_MS;
        while (true) {
            try {
                verify();
                return;
            } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof RetriableException) || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                sleep(200);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    /**
     * Every topic as {@link #ensureTopics} creates it (partitions, replication factor, configs), for whoever
     * declares the topics elsewhere, such as the Kubernetes manifests' KafkaTopic resources.
     */
    public List<NewTopic> newTopics() {
        return topics.all().stream().map(this::newTopic).toList();
    }

    private NewTopic newTopic(String name) {
        String policy = topics.compacted().contains(name) ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE;
        Optional<Short> rf = replicationFactor < 0 ? Optional.empty() : Optional.of(replicationFactor);
        int count = isCoPartitioned(name) ? partitions : 1;
        Map<String, String> configs = new java.util.HashMap<>(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, policy));
        if (maxMessageBytes > 0) {
            configs.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(maxMessageBytes));
        }
        return new NewTopic(name, Optional.of(count), rf).configs(configs);
    }

    /**
     * Every topic but the kinds topic: it feeds a global table, which every instance reads whole, so its partition
     * count is free. It is created with one, because the global thread restores a partition at a time before Kafka
     * Streams' {@code start()} returns (and its consumer would warn once per other partition at every start).
     */
    private boolean isCoPartitioned(String name) {
        return !name.equals(topics.kinds());
    }

    private void createAll(List<NewTopic> missing) {
        LOG.info("Creating topics {} with {} partitions ({} with 1)", names(missing), partitions, topics.kinds());
        try {
            admin.createTopics(missing).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Cannot create topics " + names(missing) + ": " + e.getCause(), e.getCause());
            }
            // Another instance won the race; verify() checks what it created.
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException("Timed out creating topics " + names(missing), e);
        }
    }

    private void verify() {
        Map<String, TopicDescription> described = await(admin.describeTopics(topics.all()).allTopicNames());
        List<String> problems = new ArrayList<>();
        described.forEach((name, d) -> {
            if (isCoPartitioned(name) && d.partitions().size() != partitions) {
                problems.add(name + " has " + d.partitions().size() + " partitions, expected " + partitions
                    + " (all statesync topics must be co-partitioned; set topic.partitions to match or recreate the topic)");
            }
        });
        List<ConfigResource> resources = topics.all().stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        Map<ConfigResource, Config> configs = await(admin.describeConfigs(resources).all());
        configs.forEach((res, cfg) -> {
            String policy = cfg.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
            boolean wantCompact = topics.compacted().contains(res.name());
            if (wantCompact != policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                problems.add(res.name() + " has cleanup.policy=" + policy + ", expected "
                    + (wantCompact ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE));
            }
        });
        raiseMessageLimits(configs, problems);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("statesync topics are misconfigured: " + String.join("; ", problems));
        }
    }

    /** Raises {@code max.message.bytes} of every topic that allows less than the largest record statesync produces. */
    private void raiseMessageLimits(Map<ConfigResource, Config> configs, List<String> problems) {
        if (maxMessageBytes <= 0) {
            return;
        }
        Map<ConfigResource, Collection<org.apache.kafka.clients.admin.AlterConfigOp>> raise = new java.util.HashMap<>();
        configs.forEach((res, cfg) -> {
            var entry = cfg.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (entry != null && Long.parseLong(entry.value()) < maxMessageBytes) {
                LOG.warn("Topic {} allows records of {} bytes, fewer than the {} statesync may produce; raising its {}",
                    res.name(), entry.value(), maxMessageBytes, TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
                raise.put(res, List.of(new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(maxMessageBytes)),
                    org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)));
            }
        });
        if (!raise.isEmpty()) {
            try {
                await(admin.incrementalAlterConfigs(raise).all());
            } catch (IllegalStateException e) {
                problems.add("cannot raise max.message.bytes of " + raise.keySet().stream().map(ConfigResource::name).toList()
                    + " to " + maxMessageBytes + " (" + e.getMessage() + "); raise it, or lower spec.max.bytes");
            }
        }
    }

    private static String names(Collection<NewTopic> topics) {
        return topics.stream().map(NewTopic::name).toList().toString();
    }

    private static <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Kafka admin call failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka admin call timed out after " + TIMEOUT_S + " s", e);
        }
    }
}
