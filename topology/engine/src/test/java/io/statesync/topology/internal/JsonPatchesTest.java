package io.statesync.topology.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonPatchesTest {

    private static final ObjectMapper M = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return M.readTree(s.replace('\'', '"'));
    }

    private static JsonNode patch(String doc, String ops) throws Exception {
        return JsonPatches.jsonPatch(json(doc), json(ops));
    }

    @Test
    void shouldApplyMergePatchesAsRfc7386Says() throws Exception {
        JsonNode target = json("{'a':'b','c':{'d':'e','f':'g'},'l':[1,2]}");
        JsonNode patch = json("{'a':'z','c':{'f':null},'l':[3],'n':{'x':null}}");
        assertThat(JsonPatches.mergePatch(target, patch)).isEqualTo(json("{'a':'z','c':{'d':'e'},'l':[3],'n':{}}"));
        assertThat(target).isEqualTo(json("{'a':'b','c':{'d':'e','f':'g'},'l':[1,2]}"));
    }

    @Test
    void shouldAddIntoObjectsAndArraysIncludingTheEnd() throws Exception {
        assertThat(patch("{'l':[1,3]}", "[{'op':'add','path':'/l/1','value':2},{'op':'add','path':'/l/-','value':4},"
            + "{'op':'add','path':'/m','value':{'a':1}}]")).isEqualTo(json("{'l':[1,2,3,4],'m':{'a':1}}"));
    }

    @Test
    void shouldRemoveReplaceMoveAndCopy() throws Exception {
        assertThat(patch("{'a':1,'b':{'c':2},'l':[1,2,3]}", "[{'op':'remove','path':'/l/0'},"
            + "{'op':'replace','path':'/a','value':9},{'op':'move','from':'/b/c','path':'/d'},{'op':'copy','from':'/d','path':'/e'}]"))
            .isEqualTo(json("{'a':9,'b':{},'l':[2,3],'d':2,'e':2}"));
    }

    @Test
    void shouldUnescapeTildeAndSlashInPointers() throws Exception {
        assertThat(patch("{'a/b':1,'m~n':2}", "[{'op':'replace','path':'/a~1b','value':3},{'op':'remove','path':'/m~0n'}]"))
            .isEqualTo(json("{'a/b':3}"));
    }

    @Test
    void shouldPassATestThatComparesNumbersByValue() throws Exception {
        assertThat(patch("{'n':2,'o':{'a':1,'b':2}}", "[{'op':'test','path':'/n','value':2.0},"
            + "{'op':'test','path':'/o','value':{'b':2,'a':1}}]")).isEqualTo(json("{'n':2,'o':{'a':1,'b':2}}"));
    }

    @Test
    void shouldFailAFailingTestAsNotApplicable() {
        assertThatThrownBy(() -> patch("{'n':2}", "[{'op':'test','path':'/n','value':3}]"))
            .isInstanceOfSatisfying(JsonPatches.PatchException.class, e -> assertThat(e.malformed()).isFalse());
    }

    @Test
    void shouldFailAMissingPathOrAnIndexOutOfBoundsAsNotApplicable() {
        assertThatThrownBy(() -> patch("{'a':1}", "[{'op':'remove','path':'/b'}]"))
            .isInstanceOfSatisfying(JsonPatches.PatchException.class, e -> assertThat(e.malformed()).isFalse());
        assertThatThrownBy(() -> patch("{'l':[1]}", "[{'op':'add','path':'/l/5','value':1}]"))
            .isInstanceOfSatisfying(JsonPatches.PatchException.class, e -> assertThat(e.malformed()).isFalse());
        assertThatThrownBy(() -> patch("{'a':{}}", "[{'op':'add','path':'/x/y','value':1}]"))
            .isInstanceOfSatisfying(JsonPatches.PatchException.class, e -> assertThat(e.malformed()).isFalse());
    }

    @Test
    void shouldFailAPatchThatIsNotAPatchAsMalformed() {
        for (String bad : new String[] {"{'op':'add'}", "[{'op':'jump','path':'/a'}]", "[{'op':'add','path':'a','value':1}]",
            "[{'op':'add','path':'/a'}]", "[{'op':'move','path':'/a'}]"}) {
            assertThatThrownBy(() -> patch("{'a':1}", bad)).as(bad)
                .isInstanceOfSatisfying(JsonPatches.PatchException.class, e -> assertThat(e.malformed()).isTrue());
        }
    }

    @Test
    void shouldRefuseToMoveAValueIntoItsOwnChild() {
        assertThatThrownBy(() -> patch("{'a':{'b':1}}", "[{'op':'move','from':'/a','path':'/a/c'}]"))
            .isInstanceOf(JsonPatches.PatchException.class);
    }

    @Test
    void shouldLeaveTheInputUnchanged() throws Exception {
        JsonNode doc = json("{'a':[1,2]}");
        JsonPatches.jsonPatch(doc, json("[{'op':'remove','path':'/a/0'}]"));
        assertThat(doc).isEqualTo(json("{'a':[1,2]}"));
    }

    /** Fourteen or more copies of a document into itself double it each time: gigabytes from a kilobyte of patch. */
    private static String copyBomb(int copies) {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < copies; i++) {
            ops.append(i == 0 ? "" : ",").append("{'op':'copy','from':'/spec','path':'/spec/a").append(i).append("'}");
        }
        return ops.append("]").toString();
    }

    @Test
    void shouldRefuseACopyBombBeforeItsCopiesPassTheByteBudget() throws Exception {
        JsonNode doc = json("{'spec':{'image':'" + "x".repeat(80) + "'}}");
        JsonPatches.Limits limits = new JsonPatches.Limits(2L * 1_048_576, 65, 10_000);
        assertThatThrownBy(() -> JsonPatches.jsonPatch(doc, json(copyBomb(24)), limits))
            .isInstanceOf(JsonPatches.TooLarge.class).hasMessageContaining("bytes")
            // A 100-byte spec doubles past 2 MiB at about the fifteenth copy: refused there, not after the 24th.
            .hasMessageMatching("operation 1[3-6] .*");
    }

    @Test
    void shouldChargeEveryCopyEvenWhenTheCopiesAreRemovedAgain() throws Exception {
        JsonNode doc = json("{'spec':{'image':'" + "x".repeat(1_000) + "'}}");
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < 50; i++) {
            ops.append(i == 0 ? "" : ",").append("{'op':'copy','from':'/spec','path':'/spec/c'},{'op':'remove','path':'/spec/c'}");
        }
        JsonPatches.Limits limits = new JsonPatches.Limits(20_000, 65, 10_000);
        assertThatThrownBy(() -> JsonPatches.jsonPatch(doc, json(ops.append("]").toString()), limits))
            .isInstanceOf(JsonPatches.TooLarge.class);
    }

    @Test
    void shouldRefuseMoreOperationsThanTheLimit() throws Exception {
        JsonNode doc = json("{'spec':{'a':1}}");
        JsonPatches.Limits limits = new JsonPatches.Limits(1_000_000, 65, 3);
        String four = "[{'op':'test','path':'/spec/a','value':1},{'op':'test','path':'/spec/a','value':1},"
            + "{'op':'test','path':'/spec/a','value':1},{'op':'test','path':'/spec/a','value':1}]";
        assertThatThrownBy(() -> JsonPatches.jsonPatch(doc, json(four), limits))
            .isInstanceOf(JsonPatches.TooLarge.class).hasMessageContaining("4 operations, more than the limit of 3");
    }

    @Test
    void shouldRefuseAValuePlacedDeeperThanTheLimit() throws Exception {
        JsonNode doc = json("{'spec':{'a':{'b':{'c':1}}}}");
        JsonPatches.Limits limits = new JsonPatches.Limits(1_000_000, 6, 100);
        assertThat(JsonPatches.jsonPatch(doc, json("[{'op':'copy','from':'/spec/a/b','path':'/spec/a/b/d'}]"), limits)
            .at("/spec/a/b/d/c").asInt()).isEqualTo(1);
        assertThatThrownBy(() -> JsonPatches.jsonPatch(doc, json("[{'op':'copy','from':'/spec/a','path':'/spec/a/b/d'}]"), limits))
            .isInstanceOf(JsonPatches.TooLarge.class).hasMessageContaining("deeper than the limit of 6 levels");
        JsonNode two = json("{'spec':{'a':{'b':{'c':1}},'z':{'y':{}}}}");
        assertThatThrownBy(() -> JsonPatches.jsonPatch(two, json("[{'op':'move','from':'/spec/a','path':'/spec/z/y/w'}]"), limits))
            .isInstanceOf(JsonPatches.TooLarge.class);
    }

    @Test
    void shouldApplyAnOrdinaryPatchWithinTheLimits() throws Exception {
        JsonNode doc = json("{'spec':{'a':[1,2],'b':'x'}}");
        JsonPatches.Limits limits = new JsonPatches.Limits(200, 4, 10);
        JsonNode out = JsonPatches.jsonPatch(doc, json("[{'op':'add','path':'/spec/a/-','value':3},"
            + "{'op':'copy','from':'/spec/a','path':'/spec/c'},{'op':'move','from':'/spec/b','path':'/spec/d'},"
            + "{'op':'replace','path':'/spec/c/0','value':9}]"), limits);
        assertThat(out).isEqualTo(json("{'spec':{'a':[1,2,3],'c':[9,2,3],'d':'x'}}"));
        assertThat(doc).isEqualTo(json("{'spec':{'a':[1,2],'b':'x'}}"));
    }
}
