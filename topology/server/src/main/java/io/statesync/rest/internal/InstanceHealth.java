package io.statesync.rest.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.StatesyncTopology;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * Readiness and liveness of one instance, answered on the REST port and on the probe port alike. Ready: the streams
 * run, the stores answer, the admission replies and the view are in place and no loop is failing. Live: unless a
 * restart of the instance would help.
 */
public final class InstanceHealth {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<KafkaStreams> streams;
    private final Runnable kindsStoreCheck;
    private final BooleanSupplier admissionReady;
    private final BooleanSupplier viewReady;
    private final List<Supplier<String>> readinessChecks = new CopyOnWriteArrayList<>();
    private final List<Supplier<String>> livenessChecks = new CopyOnWriteArrayList<>();
    /** The background loops of the server (admission replies, the view's reader, the event history), once started. */
    private final List<LoopSupervisor> loops = new CopyOnWriteArrayList<>();

    /** @param kindsStoreCheck throws while the global kinds store is not queryable */
    public InstanceHealth(Supplier<KafkaStreams> streams, Runnable kindsStoreCheck, BooleanSupplier admissionReady,
                          BooleanSupplier viewReady) {
        this.streams = streams;
        this.kindsStoreCheck = kindsStoreCheck;
        this.admissionReady = admissionReady;
        this.viewReady = viewReady;
    }

    public void addLoop(LoopSupervisor loop) {
        loops.add(loop);
    }

    public void addReadinessCheck(Supplier<String> check) {
        readinessChecks.add(check);
    }

    public void addLivenessCheck(Supplier<String> check) {
        livenessChecks.add(check);
    }

    /** {@code /readyz} on the REST port. */
    public void readyz(Context ctx) {
        answer(ctx, readinessBody());
    }

    /** {@code /livez} and {@code /healthz} on the REST port: 503 only where a restart would help. */
    public void livez(Context ctx) {
        answer(ctx, livenessBody());
    }

    private static void answer(Context ctx, Map<String, Object> body) {
        if (body.containsKey("reason")) {
            ctx.status(503);
        }
        ctx.json(body);
    }

    /** The probe port's answer to {@code path}; null for a path that is not a probe. */
    public ProbeServer.Answer probeAnswer(String path) {
        Map<String, Object> body = switch (path) {
            case "/healthz", "/livez" -> livenessBody();
            case "/readyz" -> readinessBody();
            default -> null;
        };
        if (body == null) {
            return null;
        }
        try {
            return new ProbeServer.Answer(body.containsKey("reason") ? 503 : 200, JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, Object> readinessBody() {
        List<String> problems = readinessProblems();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ready", problems.isEmpty());
        if (!problems.isEmpty()) {
            body.put("reason", String.join("; ", problems));
        }
        body.put("loops", loops.stream().map(InstanceHealth::loopJson).toList());
        return body;
    }

    private static Map<String, Object> loopJson(LoopSupervisor loop) {
        LoopSupervisor.State state = loop.state();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", state.loop());
        out.put("phase", state.phase().name());
        if (state.reason() != null) {
            out.put("reason", state.reason());
        }
        out.put("since", state.since().toString());
        out.put("restarts", loop.restarts());
        return out;
    }

    private Map<String, Object> livenessBody() {
        List<String> problems = livenessProblems();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", problems.isEmpty() ? "ok" : "failing");
        if (!problems.isEmpty()) {
            body.put("reason", String.join("; ", problems));
        }
        return body;
    }

    /** Why a restart of this instance would help; empty when it would not. */
    public List<String> livenessProblems() {
        List<String> problems = new ArrayList<>();
        loops.forEach(loop -> addIfAny(problems, loop.livenessProblem()));
        livenessChecks.forEach(check -> addIfAny(problems, check.get()));
        return problems;
    }

    /** Why this instance is not ready; empty when it is. */
    public List<String> readinessProblems() {
        List<String> problems = new ArrayList<>();
        KafkaStreams s = streams.get();
        if (s == null) {
            problems.add("streams not started");
        } else if (s.state() != KafkaStreams.State.RUNNING) {
            problems.add("streams state is " + s.state());
        } else {
            try {
                s.store(StoreQueryParameters.fromNameAndType(StatesyncTopology.STATE_STORE, QueryableStoreTypes.keyValueStore()));
                kindsStoreCheck.run();
            } catch (RuntimeException e) {
                problems.add("stores not queryable: " + e.getMessage());
            }
        }
        if (!admissionReady.getAsBoolean()) {
            problems.add("admission reply consumer not assigned");
        }
        if (!viewReady.getAsBoolean()) {
            problems.add("resource view still loading");
        }
        loops.forEach(loop -> addIfAny(problems, loop.readinessProblem()));
        readinessChecks.forEach(check -> addIfAny(problems, check.get()));
        return problems;
    }

    private static void addIfAny(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }
}
