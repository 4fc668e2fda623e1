package io.statesync.simulator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.agent.ChildWriter;
import io.statesync.agent.Observation;
import io.statesync.agent.ResourceAgent;
import io.statesync.agent.ResourceRef;
import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.schemas.Values;

/**
 * The demo fleet's WebApp controller: it applies a WebApp by rendering two children, a Deployment
 * ({@code image}, {@code replicas}, {@code env}) named {@code <webapp>-deployment} and a Service ({@code port}) named
 * {@code <webapp>-service}, with the WebApp as their controller owner ({@link ChildWriter}). Other agents (the fleet
 * simulator) apply the children; statesync's garbage collector deletes them with the WebApp. The WebApp's own health
 * comes from its children ({@code children} in its kind's health rules).
 */
public final class WebAppAgent implements ResourceAgent {

    public static final String KIND = "WebApp";

    private final ChildWriter children;
    private final Map<String, Observation> applied = new ConcurrentHashMap<>();

    public WebAppAgent(ChildWriter children) {
        this.children = children;
    }

    @Override
    public Set<String> kinds() {
        return Set.of(KIND);
    }

    @Override
    public Observation observe(ResourceRef ref) {
        return applied.getOrDefault(ref.key(), Observation.absent(ref));
    }

    @Override
    public Collection<Observation> list() {
        return new ArrayList<>(applied.values());
    }

    @Override
    public void apply(Correction c) throws Exception {
        ResourceRef ref = new ResourceRef(c.getKind(), c.getNamespace(), c.getName());
        if (c.getAction() == Action.DELETE) {
            children.forget(c);
            applied.remove(ref.key());
            return;
        }
        Object spec = Values.toJava(c.getDesiredSpec());
        Map<?, ?> webapp = spec instanceof Map<?, ?> m ? m : Map.of();
        children.render(c, render(webapp));
        applied.put(ref.key(), new Observation(ref, spec, null, c.getUid(), c.getGeneration()));
    }

    /** The children of a WebApp spec: the fields each child takes, when the WebApp has them. */
    public static List<ChildWriter.Child> render(Map<?, ?> webapp) {
        Map<String, Object> deployment = new LinkedHashMap<>();
        copy(webapp, "image", deployment);
        copy(webapp, "replicas", deployment);
        copy(webapp, "env", deployment);
        Map<String, Object> service = new LinkedHashMap<>();
        copy(webapp, "port", service);
        return List.of(new ChildWriter.Child("Deployment", "deployment", deployment),
            new ChildWriter.Child("Service", "service", service));
    }

    private static void copy(Map<?, ?> from, String field, Map<String, Object> to) {
        if (from.containsKey(field)) {
            to.put(field, from.get(field));
        }
    }
}
