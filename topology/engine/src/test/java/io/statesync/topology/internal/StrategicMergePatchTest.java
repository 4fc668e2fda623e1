package io.statesync.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class StrategicMergePatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text.replace('\'', '"'));
    }

    private static JsonNode apply(String target, String patch) throws Exception {
        return StrategicMergePatch.apply(json(target), json(patch));
    }

    @Test
    void shouldMergeAListByTheKeyItsOrderNamesAndKeepTheOtherFieldsOfAnItem() throws Exception {
        JsonNode out = apply("{'containers':[{'name':'web','image':'a','ports':[80]},{'name':'log','image':'l'}]}",
            "{'$setElementOrder/containers':[{'name':'web'},{'name':'side'},{'name':'log'}],"
                + "'containers':[{'name':'web','image':'b'},{'name':'side','image':'s'}]}");

        assertThat(out).isEqualTo(json("{'containers':[{'name':'web','image':'b','ports':[80]},{'name':'side','image':'s'},"
            + "{'name':'log','image':'l'}]}"));
    }

    @Test
    void shouldDeleteAnItemByItsKeyAndValuesFromAPrimitiveList() throws Exception {
        JsonNode out = apply("{'c':[{'name':'a'},{'name':'b'}],'f':['x','y','z']}",
            "{'c':[{'name':'a','$patch':'delete'}],'$deleteFromPrimitiveList/f':['y']}");

        assertThat(out).isEqualTo(json("{'c':[{'name':'b'}],'f':['x','z']}"));
    }

    @Test
    void shouldReplaceDeleteAndRetainMapsAsTheirDirectivesSay() throws Exception {
        assertThat(apply("{'m':{'a':1,'b':2}}", "{'m':{'$patch':'replace','c':3}}")).isEqualTo(json("{'m':{'c':3}}"));
        assertThat(apply("{'m':{'a':1},'k':1}", "{'m':{'$patch':'delete'}}")).isEqualTo(json("{'k':1}"));
        assertThat(apply("{'s':{'a':1,'b':2}}", "{'s':{'$retainKeys':['b','c'],'c':3}}")).isEqualTo(json("{'s':{'b':2,'c':3}}"));
    }

    @Test
    void shouldReplaceAListWithoutDirectivesAndRemoveANulledKey() throws Exception {
        assertThat(apply("{'l':[1,2,3],'x':1,'y':2}", "{'l':[4],'x':null}")).isEqualTo(json("{'l':[4],'y':2}"));
    }

    @Test
    void shouldReorderAListTheOrderNamesWithoutChangingIt() throws Exception {
        assertThat(apply("{'c':[{'name':'a'},{'name':'b'}]}", "{'$setElementOrder/c':[{'name':'b'},{'name':'a'}]}"))
            .isEqualTo(json("{'c':[{'name':'b'},{'name':'a'}]}"));
    }

    @Property(tries = 200)
    void aPatchWithoutDirectivesMeansWhatTheSameMergePatchMeans(@ForAll @IntRange(min = 0, max = 5) int a,
                                                                 @ForAll @IntRange(min = 0, max = 5) int b) throws Exception {
        JsonNode target = json("{'spec':{'n':" + a + ",'l':[1,2],'m':{'x':1}},'keep':true}");
        JsonNode patch = json("{'spec':{'n':" + b + ",'l':[" + b + "],'m':{'x':null,'y':" + a + "}}}");

        assertThat(StrategicMergePatch.apply(target, patch)).isEqualTo(JsonPatches.mergePatch(target, patch));
    }
}
