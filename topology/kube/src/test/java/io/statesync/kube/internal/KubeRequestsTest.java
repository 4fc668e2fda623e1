package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.statesync.avro.PatchType;
import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

class KubeRequestsTest {

    @Test
    void shouldReadThePatchTypeFromTheMediaTypeWithoutItsParameters() {
        assertThat(KubeRequests.patchType("application/merge-patch+json; charset=utf-8")).isEqualTo(PatchType.MergePatch);
        assertThat(KubeRequests.patchType("Application/JSON-Patch+JSON")).isEqualTo(PatchType.JsonPatch);
    }

    @Test
    void shouldTakeServerSideApplyAndRefuseStrategicMergeAndUnknownPatchTypesWithUnsupportedMediaType() {
        assertThat(KubeRequests.patchType("application/apply-patch+yaml")).isEqualTo(PatchType.Apply);
        assertThatThrownBy(() -> KubeRequests.patchType("application/strategic-merge-patch+json"))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(415);
                assertThat(e.getMessage()).contains("application/apply-patch+yaml");
            });
        assertThatThrownBy(() -> KubeRequests.patchType(null))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(415));
    }
}
