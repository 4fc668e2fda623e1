package io.statesync.topology.internal;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;

/**
 * A Resource as it was published: its wire bytes, and what it held then, field by field, so that the commit that
 * writes the key's state can tell whether the state's Resource is still the one those bytes encode and copy them
 * instead of encoding it again (see {@link io.statesync.serde.PreEncodedRecords}).
 *
 * <p>The engine changes a stored Resource by setting its fields, never by changing a list, map or nested record in
 * place, and a spec is never changed at all; so the same instances in every field of the Resource, its metadata and
 * its status, and equal scalars, mean the same Resource. The encoders check that claim whenever assertions are on,
 * and a test holds the fields named here to the schemas' fields.
 */
final class PublishedResource {

    /** The fields of ObjectMeta and ResourceStatus that {@link #describes} compares, as a test checks. */
    static final int METADATA_FIELDS = 13;
    static final int STATUS_FIELDS = 11;

    private final Resource resource;
    private final byte[] wireBytes;
    private final Object spec;
    private final ObjectMeta metadata;
    private final ResourceStatus status;
    private final ObjectMeta metadataCopy;
    private final ResourceStatus statusCopy;

    PublishedResource(Resource resource, byte[] wireBytes) {
        this.resource = resource;
        this.wireBytes = wireBytes;
        this.spec = resource.getSpec();
        this.metadata = resource.getMetadata();
        this.status = resource.getStatus();
        // Shallow: the generated all-fields constructors copy references, where the builders would copy deeply.
        ObjectMeta m = metadata;
        this.metadataCopy = new ObjectMeta(m.getKind(), m.getNamespace(), m.getName(), m.getUid(), m.getResourceVersion(),
            m.getGeneration(), m.getCreationTimestamp(), m.getDeletionTimestamp(), m.getLabels(), m.getAnnotations(),
            m.getFinalizers(), m.getOwnerReferences(), m.getManagedFields());
        ResourceStatus s = status;
        this.statusCopy = new ResourceStatus(s.getObservedGeneration(), s.getSyncStatus(), s.getConditions(), s.getDiff(),
            s.getAttempts(), s.getLastCorrection(), s.getConvergedAt(), s.getLastObservedAt(), s.getHealth(),
            s.getReported(), s.getReportedConditions());
    }

    byte[] wireBytes() {
        return wireBytes;
    }

    /** Whether {@code r} is the published instance and holds what it held when it was published. */
    boolean describes(Resource r) {
        return r == resource && r.getSpec() == spec && r.getMetadata() == metadata && r.getStatus() == status
            && sameMetadata(metadataCopy, metadata) && sameStatus(statusCopy, status);
    }

    private static boolean sameMetadata(ObjectMeta a, ObjectMeta b) {
        return same(a.getKind(), b.getKind()) && same(a.getNamespace(), b.getNamespace()) && same(a.getName(), b.getName())
            && same(a.getUid(), b.getUid()) && same(a.getResourceVersion(), b.getResourceVersion())
            && a.getGeneration() == b.getGeneration() && same(a.getCreationTimestamp(), b.getCreationTimestamp())
            && same(a.getDeletionTimestamp(), b.getDeletionTimestamp()) && a.getLabels() == b.getLabels()
            && a.getAnnotations() == b.getAnnotations() && a.getFinalizers() == b.getFinalizers()
            && a.getOwnerReferences() == b.getOwnerReferences() && a.getManagedFields() == b.getManagedFields();
    }

    private static boolean sameStatus(ResourceStatus a, ResourceStatus b) {
        return a.getObservedGeneration() == b.getObservedGeneration() && a.getSyncStatus() == b.getSyncStatus()
            && a.getConditions() == b.getConditions() && a.getDiff() == b.getDiff() && a.getAttempts() == b.getAttempts()
            && a.getLastCorrection() == b.getLastCorrection() && same(a.getConvergedAt(), b.getConvergedAt())
            && same(a.getLastObservedAt(), b.getLastObservedAt()) && a.getHealth() == b.getHealth()
            && a.getReported() == b.getReported() && a.getReportedConditions() == b.getReportedConditions();
    }

    /** Strings and times: the same instance, or equal ones (a copy written with the same value). */
    private static boolean same(Object a, Object b) {
        return a == b || (a != null && a.equals(b));
    }
}
