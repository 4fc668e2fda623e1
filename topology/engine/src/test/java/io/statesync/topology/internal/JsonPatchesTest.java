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
}
