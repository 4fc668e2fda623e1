/**
 * The {@code statesync} command line. Client commands talk to the REST API ({@code --server}, default
 * {@code http://127.0.0.1:8080} or {@code STATESYNC_SERVER}; {@code --token} or {@code STATESYNC_TOKEN}; {@code -o table|json|yaml})
 * and exit with 0 (ok), 1 (error, including an unreachable server), 2 (usage, including a malformed resource name),
 * 3 (a compare-and-swap conflict) or 4 ({@code apply --wait}: stored, but not converged at the timeout). Resources are named {@code KIND/NAMESPACE/NAME}, the key format of the pipeline.
 */
package io.statesync.cli;
