package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.statesync.avro.PatchType;
import io.statesync.rest.ApiError;
import java.util.List;

import org.junit.jupiter.api.Test;

class KubeRequestsTest {

    private static final KindCatalog.Kind WEB_APP = KindCatalog.of("WebApp", null);
    private static final KindCatalog.Kind DEPLOYMENT = new KindCatalog.Kind("Deployment.apps", "apps", List.of("v1"),
        "deployments", "deployment", List.of(), List.of(), true, null, null);

    @Test
    void shouldReadThePatchTypeFromTheMediaTypeWithoutItsParameters() {
        assertThat(KubeRequests.patchType("application/merge-patch+json; charset=utf-8", WEB_APP)).isEqualTo(PatchType.MergePatch);
        assertThat(KubeRequests.patchType("Application/JSON-Patch+JSON", WEB_APP)).isEqualTo(PatchType.JsonPatch);
    }

    @Test
    void shouldTakeServerSideApplyAndRefuseStrategicMergeAndUnknownPatchTypesWithUnsupportedMediaType() {
        assertThat(KubeRequests.patchType("application/apply-patch+yaml", WEB_APP)).isEqualTo(PatchType.Apply);
        assertThatThrownBy(() -> KubeRequests.patchType("application/strategic-merge-patch+json", WEB_APP))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(415);
                assertThat(e.getMessage()).contains("application/apply-patch+yaml");
            });
        assertThatThrownBy(() -> KubeRequests.patchType(null, WEB_APP))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(415));
    }

    @Test
    void shouldTakeAStrategicMergePatchOfABuiltInGroupsKindOnly() {
        assertThat(KubeRequests.patchType("application/strategic-merge-patch+json", DEPLOYMENT))
            .isEqualTo(PatchType.StrategicMergePatch);
    }
}
