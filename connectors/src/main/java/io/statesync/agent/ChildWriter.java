package io.statesync.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.PatchType;
import io.statesync.avro.WritePatch;
import io.statesync.schemas.Values;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Lets an agent for a kind keep child resources of its own resources, as a Kubernetes controller keeps the objects
 * it owns: {@link #render} server-side applies each child to {@code statesync.desired} under the writer's field
 * manager, with the parent as its controller owner ({@code blockOwnerDeletion: true}), under a deterministic name
 * ({@code <parent>-<suffix>}), and deletes the children it wrote for that parent before that are no longer rendered.
 * As an apply, a write needs no read first, leaves alone the fields other managers set on the child, removes the
 * fields a rendering stops setting, and is refused (a Conflict event naming the fields) rather than silently
 * overwriting a field someone else changed. A child whose rendering did not
 * change since the last write is not written again; a write that is written again anyway (after a restart) is a
 * no-op at admission, so rendering is idempotent. Deleting the parent needs nothing from here: statesync's garbage
 * collector deletes the children of a parent that is gone.
 *
 * <p>What was written is remembered in memory: a child dropped from the rendering while the agent was not running
 * stays until its parent goes. Thread-safe; calls for one parent should not overlap (the agent library serializes
 * them per key).
 */
public final class ChildWriter implements AutoCloseable {

    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);
    /** The field manager of {@link #ChildWriter(Producer, String)}. */
    public static final String DEFAULT_FIELD_MANAGER = "statesync-child-writer";

    /** One child: its kind, the suffix of its name after the parent's name and a dash, and its spec as a tree. */
    public record Child(String kind, String suffix, Map<String, ?> spec) {
    }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Producer<String, DesiredState> producer;
    private final String topic;
    private final String fieldManager;
    /** Parent key to the children last written for it, key to the desired state as written. */
    private final Map<String, Map<String, DesiredState>> written = new ConcurrentHashMap<>();

    public ChildWriter(Producer<String, DesiredState> producer, String desiredTopic) {
        this(producer, desiredTopic, DEFAULT_FIELD_MANAGER);
    }

    /** A writer whose applies are recorded under {@code fieldManager} in the children's managed fields. */
    public ChildWriter(Producer<String, DesiredState> producer, String desiredTopic, String fieldManager) {
        this.producer = producer;
        this.topic = desiredTopic;
        this.fieldManager = fieldManager;
    }

    /** A writer with its own producer over {@code desired} (e.g. {@link AgentSerdes#desired}). */
    public static ChildWriter create(AgentConfig config, Serde<DesiredState> desired) {
        return new ChildWriter(new KafkaProducer<>(StatesyncAgent.producerProps(config), new StringSerializer(),
            desired.serializer()), config.desiredTopic());
    }

    /** The name of a parent's child with {@code suffix}. */
    public static String childName(String parentName, String suffix) {
        return parentName + "-" + suffix;
    }

    /**
     * Makes the parent's children exactly {@code children}: writes the new and changed ones, deletes the ones written
     * before and no longer rendered, and waits until the broker has them all. Returns the keys of the children now.
     */
    public List<String> render(Correction parent, List<Child> children) throws InterruptedException, ExecutionException,
            java.util.concurrent.TimeoutException {
        String parentKey = parent.getKind() + "/" + parent.getNamespace() + "/" + parent.getName();
        OwnerReference owner = new OwnerReference("statesync.io/v1", parent.getKind(), parent.getName(), parent.getUid(),
            true, true);
        Map<String, DesiredState> before = written.getOrDefault(parentKey, Map.of());
        Map<String, DesiredState> now = new LinkedHashMap<>();
        List<Future<?>> sends = new ArrayList<>();
        for (Child c : children) {
            String name = childName(parent.getName(), c.suffix());
            DesiredState d = DesiredState.newBuilder().setKind(c.kind()).setNamespace(parent.getNamespace()).setName(name)
                .setPatch(new WritePatch(PatchType.Apply, configuration(owner, c.spec()))).setFieldManager(fieldManager)
                .build();
            String key = c.kind() + "/" + parent.getNamespace() + "/" + name;
            now.put(key, d);
            if (!d.equals(before.get(key))) {
                sends.add(producer.send(new ProducerRecord<>(topic, key, d)));
            }
        }
        Set<String> dropped = new java.util.HashSet<>(before.keySet());
        dropped.removeAll(now.keySet());
        for (String key : dropped) {
            sends.add(producer.send(new ProducerRecord<>(topic, key, null)));
        }
        for (Future<?> f : sends) {
            f.get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        written.put(parentKey, new HashMap<>(now));
        return new ArrayList<>(now.keySet());
    }

    /** The child's whole intent as this manager applies it: the controller reference and the spec. */
    private static String configuration(OwnerReference owner, Map<String, ?> spec) {
        ObjectNode config = JSON.objectNode();
        config.putObject("metadata").putArray("ownerReferences").addObject().put("apiVersion", owner.getApiVersion())
            .put("kind", owner.getKind()).put("name", owner.getName()).put("uid", owner.getUid())
            .put("controller", owner.getController()).put("blockOwnerDeletion", owner.getBlockOwnerDeletion());
        config.set("spec", Values.toJson(Values.fromJava(spec)));
        return config.toString();
    }

    /** The parent is gone: forget its children (the garbage collector deletes them). */
    public void forget(Correction parent) {
        written.remove(parent.getKind() + "/" + parent.getNamespace() + "/" + parent.getName());
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
