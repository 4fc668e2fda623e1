/**
 * The Kubernetes API of statesync (group {@code statesync.io}, version {@code v1}): {@link io.statesync.kube.KubeApi},
 * a {@link io.statesync.rest.RestExtension} that every instance with this module on its class path serves. The
 * implementation is in {@code io.statesync.kube.internal}; docs/kubernetes-api.md describes the mapping.
 */
package io.statesync.kube;
