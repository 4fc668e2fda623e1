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
    void shouldRefuseServerSideApplyAndUnknownPatchTypesWithUnsupportedMediaType() {
        assertThatThrownBy(() -> KubeRequests.patchType("application/apply-patch+yaml"))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(415);
                assertThat(e.getMessage()).contains("server-side apply is not supported");
            });
        assertThatThrownBy(() -> KubeRequests.patchType(null))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(415));
    }
}
