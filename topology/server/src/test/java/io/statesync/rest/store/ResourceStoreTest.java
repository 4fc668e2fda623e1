package io.statesync.rest.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.DesiredState;
import io.statesync.avro.PatchType;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.Propagation;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.ValidationRule;
import io.statesync.reconciler.ValidationRules;
import io.statesync.rest.ApiError;
import io.statesync.rest.internal.PatchRequests;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.WriteAdmission;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store's behaviour over a transport without a broker: preconditions, refusals, dry runs, read-back, bounds. */
class ResourceStoreTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceKey KEY = ResourceKey.of("WebApp", "default", "shop");

    private final InMemoryAdmission admission = new InMemoryAdmission();
    private final List<String> answered = new ArrayList<>();
    private java.util.function.Function<String, ReconcilePolicy> policies = kind -> ReconcilePolicy.defaults();
    private ResourceStore store = store(Map.of());

    private ResourceStore store(Map<String, Object> config) {
        AppConfig appConfig = new AppConfig(config);
        return new ResourceStore(admission, admission, kind -> ResourceStrategy.of(policies.apply(kind), appConfig),
            (key, version) -> answered.add(key + "@" + version));
    }

    private static DesiredState desired(String json, String expected) throws Exception {
        return ResourceJson.desired(KEY, JSON.readTree(json), expected);
    }

    private static DesiredState spec(int replicas) throws Exception {
        return desired("{\"spec\":{\"replicas\":" + replicas + "}}", null);
    }

    private static DesiredState jsonPatch(String ops) throws Exception {
        return PatchRequests.of(KEY, PatchType.JsonPatch, JSON.readTree(ops), null);
    }

    private String existing() throws Exception {
        return store.write(KEY, spec(1), "r0", null).resourceVersion();
    }

    private static void assertRefused(ThrowingWrite write, int code, String reason) {
        assertThatThrownBy(write::run).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.reason()).isEqualTo(reason);
        });
    }

    interface ThrowingWrite {
        void run() throws Exception;
    }

    @Test
    void shouldAnswerACreateWith201AndTheObjectReadBackAtTheWrittenVersion() throws Exception {
        WriteResult w = store.write(KEY, spec(3), "r1", "Bearer t");

        assertThat(w.code()).isEqualTo(201);
        assertThat(w.reason()).isEqualTo("Created");
        assertThat(w.object().path("metadata").path("resourceVersion").asText()).isEqualTo(w.resourceVersion());
        assertThat(w.object().path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(admission.readBackVersions).containsExactly(Long.parseLong(w.resourceVersion()));
        assertThat(admission.ownerReads).isEmpty();
        assertThat(answered).containsExactly(KEY + "@" + w.resourceVersion());
    }

    @Test
    void shouldReadBackThroughTheOwnerWithTheCallersAuthorizationWhileTheViewLags() throws Exception {
        String before = existing();
        admission.viewLags = true;

        WriteResult w = store.write(KEY, spec(5), "r1", "Bearer caller");

        assertThat(w.code()).isEqualTo(200);
        assertThat(admission.ownerReads).containsExactly("Bearer caller");
        assertThat(w.object().path("spec").path("replicas").asInt()).isEqualTo(5);
        assertThat(w.object().path("metadata").path("resourceVersion").asText()).isEqualTo(w.resourceVersion())
            .isNotEqualTo(before);
    }

    @Test
    void shouldAnswerTheIdentityAndVersionWhenNeitherTheViewNorTheOwnerCanReadBack() throws Exception {
        admission.viewLags = true;
        admission.ownerUnreachable = true;

        WriteResult w = store.write(KEY, spec(2), "r1", null);

        JsonNode meta = w.object().path("metadata");
        assertThat(meta.path("name").asText()).isEqualTo("shop");
        assertThat(meta.path("resourceVersion").asText()).isEqualTo(w.resourceVersion());
        assertThat(meta.path("generation").asLong()).isEqualTo(1);
        assertThat(w.object().has("spec")).isFalse();
    }

    @Test
    void shouldRefuseAWriteWhoseIfMatchIsNotTheCurrentVersionWith409CarryingTheCurrentOne() throws Exception {
        String current = existing();

        assertThatThrownBy(() -> store.write(KEY, desired("{\"spec\":{\"replicas\":9}}", "1"), "r1", null))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(409);
                assertThat(e.resourceVersion()).isEqualTo(current);
            });
        assertThat(admission.submitted.get(1).desired().getExpectedResourceVersion()).isEqualTo("1");
        assertThat(answered).hasSize(1);
    }

    @Test
    void shouldCarryADeletesResourceVersionPreconditionAndRefuseAStaleOneWith409() throws Exception {
        String current = existing();

        assertRefused(() -> store.delete(KEY, "1", Propagation.Foreground, "r1"), 409, "Conflict");
        assertThat(admission.submitted.get(1).deleteExpectedVersion()).isEqualTo("1");
        assertThat(admission.submitted.get(1).propagationPolicy()).isEqualTo("Foreground");

        WriteResult w = store.delete(KEY, current, Propagation.Background, "r2");
        assertThat(w.code()).isEqualTo(200);
        assertThat(w.object()).isNull();
    }

    @Test
    void shouldMapAMissingObjectTo404ForADeleteAndForAPatch() {
        assertRefused(() -> store.delete(KEY, null, Propagation.Background, "r1"), 404, "NotFound");
        assertRefused(() -> store.write(KEY, jsonPatch("[{\"op\":\"add\",\"path\":\"/spec/a\",\"value\":1}]"), "r2", null),
            404, "NotFound");
    }

    @Test
    void shouldMapACreateOfAnExistingNameTo409AlreadyExists() throws Exception {
        existing();
        DesiredState create = spec(2);
        create.setCreateOnly(true);

        assertRefused(() -> store.write(KEY, create, "r1", null), 409, "AlreadyExists");
    }

    @Test
    void shouldMapAPatchThatDoesNotApplyTo422() throws Exception {
        existing();

        assertRefused(() -> store.write(KEY, jsonPatch("[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":7}]"),
            "r1", null), 422, "Invalid");
    }

    @Test
    void shouldPassAMissingAnswerOnAsItsError() {
        admission.answerError = ApiError.timeout("no admission answer");

        assertRefused(() -> store.write(KEY, spec(1), "r1", null), 504, "Timeout");
        assertThat(answered).isEmpty();
    }

    @Test
    void shouldSubmitNothingForADryRunAndAnswerTheObjectAsItWouldBeStored() throws Exception {
        existing();
        int before = admission.submitted.size();

        WriteResult w = store.dryRunWrite(KEY, spec(4));

        assertThat(admission.submitted).hasSize(before);
        assertThat(answered).hasSize(1);
        assertThat(w.code()).isEqualTo(200);
        assertThat(w.reason()).isEqualTo(WriteResult.DRY_RUN);
        assertThat(w.object().path("spec").path("replicas").asInt()).isEqualTo(4);
        assertThat(w.object().path("dryRun").path("outcome").asText()).isEqualTo("SpecChanged");
        assertThat(w.object().path("dryRun").path("specChanges").get(0).path("path").asText()).contains("replicas");
        assertThat(admission.stored.get(KEY.toString()).getSpec().toString()).contains("1");
    }

    @Test
    void shouldRefuseADryRunAsTheWriteWouldBeAndSubmitNothing() throws Exception {
        String current = existing();

        assertThatThrownBy(() -> store.dryRunWrite(KEY, desired("{\"spec\":{}}", "1")))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(409);
                assertThat(e.resourceVersion()).isEqualTo(current);
            });
        assertRefused(() -> store.dryRunDelete(ResourceKey.of("WebApp", "default", "gone"), null), 404, "NotFound");
        assertThat(admission.submitted).hasSize(1);
    }

    @Test
    void shouldAnswerADryRunDeleteWithTheObjectAndItsVersionAndKeepTheObject() throws Exception {
        String current = existing();

        WriteResult w = store.dryRunDelete(KEY, current);

        assertThat(w.resourceVersion()).isEqualTo(current);
        assertThat(w.object().path("metadata").path("name").asText()).isEqualTo("shop");
        assertThat(admission.stored).containsKey(KEY.toString());
        assertThat(admission.submitted).hasSize(1);
    }

    @Test
    void shouldMarkADryRunDecidedOnACopyTheViewCouldNotBringUpToDate() throws Exception {
        admission.viewStale = true;

        WriteResult w = store.dryRunWrite(KEY, spec(1));

        assertThat(w.stale()).isTrue();
        assertThat(w.object().path("dryRun").path("stale").asBoolean()).isTrue();
        assertThat(w.code()).isEqualTo(201);
    }

    @Test
    void shouldRefuseADryRunPatchWithMoreOperationsThanPatchMaxOperationsWith422PatchTooLarge() throws Exception {
        store = store(Map.of(AppConfig.PATCH_MAX_OPERATIONS, 2));
        existing();

        assertRefused(() -> store.dryRunWrite(KEY, jsonPatch("[{\"op\":\"add\",\"path\":\"/spec/a\",\"value\":1},"
            + "{\"op\":\"add\",\"path\":\"/spec/b\",\"value\":1},{\"op\":\"add\",\"path\":\"/spec/c\",\"value\":1}]")),
            422, WriteAdmission.PATCH_TOO_LARGE);
    }

    @Test
    void shouldRefuseAPatchThatGrowsPastSpecMaxBytesWith422PatchTooLargeInADryRunAndAWrite() throws Exception {
        store = store(Map.of(AppConfig.SPEC_MAX_BYTES, 1_024));
        admission.limits = new WriteAdmission.Limits(1_024, 64, 1_000);
        existing();
        DesiredState grow = jsonPatch("[{\"op\":\"add\",\"path\":\"/spec/blob\",\"value\":\"" + "x".repeat(2_000) + "\"}]");

        assertRefused(() -> store.dryRunWrite(KEY, grow), 422, WriteAdmission.PATCH_TOO_LARGE);
        assertRefused(() -> store.write(KEY, grow, "r1", null), 422, WriteAdmission.PATCH_TOO_LARGE);
    }

    @Test
    void shouldAnswerEachOfManyWritesOnItsOwnSoThatARefusalDoesNotStopTheOthers() throws Exception {
        existing();
        DesiredState create = spec(2);
        create.setCreateOnly(true);
        ResourceKey other = ResourceKey.of("WebApp", "default", "cart");
        DesiredState second = ResourceJson.desired(other, JSON.readTree("{\"spec\":{}}"), null);

        List<ResourceStore.Outcome> out = store.writeAll(List.of(
            new AdmissionTransport.Submission(KEY.toString(), create, "a", null),
            new AdmissionTransport.Submission(other.toString(), second, "b", null)));

        assertThat(out.get(0).refused().reason()).isEqualTo("AlreadyExists");
        assertThat(out.get(1).result().code()).isEqualTo(201);
        assertThat(out.get(1).result().object().path("metadata").path("uid").asText()).isNotEmpty();
        assertThat(answered).hasSize(2).last().asString().startsWith(other + "@");
    }

    @Test
    void shouldRefuseADryRunWhoseSpecBreaksItsKindsValidationRulesAndNoOtherKinds() throws Exception {
        ReconcilePolicy capped = ReconcilePolicy.defaults().toBuilder().validationRules(ValidationRules.compile(List.of(
            new ValidationRule("self.replicas <= 10", "at most 10 replicas", "replicas")))).build();
        policies = kind -> kind.equals("WebApp") ? capped : ReconcilePolicy.defaults();
        store = store(Map.of());
        ResourceKey db = ResourceKey.of("Db", "default", "shop");

        assertRefused(() -> store.dryRunWrite(KEY, spec(11)), 422, WriteAdmission.VALIDATION_FAILED);
        assertThat(store.dryRunWrite(db, ResourceJson.desired(db, JSON.readTree("{\"spec\":{\"replicas\":11}}"), null))
            .code()).isEqualTo(201);
    }

    @Test
    void shouldCountANumbersTypeAsASpecChangeOnlyUnderItsKindsStrictTyping() throws Exception {
        existing();
        DesiredState asDecimal = desired("{\"spec\":{\"replicas\":1.0}}", null);

        assertThat(store.dryRunWrite(KEY, asDecimal).object().path("dryRun").path("outcome").asText()).isEqualTo("NoOp");
        policies = kind -> ReconcilePolicy.defaults().toBuilder().strictTyping(true).build();
        store = store(Map.of());
        assertThat(store.dryRunWrite(KEY, asDecimal).object().path("dryRun").path("outcome").asText())
            .isEqualTo("SpecChanged");
    }
    private ResourceStore.StatusResult writeStatus(String patch, String expected) throws Exception {
        return store.writeStatus(KEY, new ResourceStore.StatusWrite(PatchType.MergePatch, JSON.readTree(patch), expected,
            null, "ctl"), WriteAdmission.Limits.DEFAULTS, "s1", null);
    }

    @Test
    void shouldWriteAStatusAsAReportOfTheFieldManagerAndReadTheObjectBack() throws Exception {
        existing();

        ResourceStore.StatusResult r = writeStatus("{\"status\":{\"readyReplicas\":2,\"observedGeneration\":1}}", null);

        assertThat(r.result().code()).isEqualTo(200);
        assertThat(r.result().object().path("status").path("readyReplicas").asInt()).isEqualTo(2);
        assertThat(r.result().object().path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(admission.statusReports).singleElement().satisfies(o -> {
            assertThat(o.getReporter()).isEqualTo("ctl");
            assertThat(o.getObservedGeneration()).isEqualTo(1);
            assertThat(o.getState()).isNull();
        });
    }

    @Test
    void shouldRefuseAStatusWriteToAMissingObjectAndAStalePreconditionWithoutRetrying() throws Exception {
        assertRefused(() -> writeStatus("{\"status\":{}}", null), 404, "NotFound");
        existing();

        assertRefused(() -> writeStatus("{\"status\":{}}", "1"), 409, "Conflict");
        assertThat(admission.statusReports).as("the client's precondition is never retried").hasSize(1);
    }

    @Test
    void shouldApplyAStatusWriteAgainToANewerCopyAFewTimesAtMostWhenItLosesRaces() throws Exception {
        existing();
        admission.viewLags = true;
        store.write(KEY, spec(2), "r1", null);

        assertRefused(() -> writeStatus("{\"status\":{\"readyReplicas\":1}}", null), 409, "Conflict");
        assertThat(admission.statusReports).hasSize(ResourceStore.STATUS_ATTEMPTS);
    }
}
