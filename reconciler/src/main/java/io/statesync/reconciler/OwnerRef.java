package io.statesync.reconciler;

/**
 * A dependent's reference to its owner, as in Kubernetes' {@code metadata.ownerReferences}: the owner is
 * {@code kind/<the dependent's namespace>/name} and is matched by {@code uid}, so an owner deleted and created again
 * under the same name is another owner.
 */
public record OwnerRef(String apiVersion, String kind, String name, String uid, boolean controller,
                       boolean blockOwnerDeletion) {

    /** The owner's key, in the dependent's namespace: references carry no namespace. */
    public String ownerKey(String dependentNamespace) {
        return kind + "/" + dependentNamespace + "/" + name;
    }
}
