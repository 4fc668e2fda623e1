package io.statesync.reconciler;

/**
 * How a resource is doing at run time, judged apart from whether it matches its spec (a resource can be Synced and
 * Degraded at once). The values are Argo CD's.
 */
public enum HealthStatus {
    /** Nothing says how it is: no rule matched and the agent reports no Ready condition, or a rule failed. */
    Unknown,
    Healthy,
    /** Not healthy yet, but moving towards it (replicas still starting, say). */
    Progressing,
    /** Failed or failing; it needs attention. */
    Degraded,
    /** Paused on purpose (scaled to zero, a suspended job). */
    Suspended,
    /** No agent has reported it, or the agent reports it absent. */
    Missing
}
