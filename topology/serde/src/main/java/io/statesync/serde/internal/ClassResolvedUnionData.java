package io.statesync.serde.internal;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificFixed;
import org.apache.avro.specific.SpecificRecord;

/**
 * A {@link SpecificData} that resolves a union's branch once per (union, Java class) and then from memory.
 *
 * <p>Avro resolves every union value by the name of its schema, a string map lookup per node; through the recursive
 * {@code Value} union that is a lookup for every node of every tree the topology reads or writes. For a datum whose class determines
 * its schema (everything except generic records, enum symbols and fixeds) the answer is the same every time, so it is
 * cached; the others still go through Avro.
 */
public final class ClassResolvedUnionData extends SpecificData {

    private static final Class<?> NULL_DATUM = Void.class;

    /** Copy-on-write, keyed by identity: {@link Schema#hashCode} walks the whole (recursive) schema. */
    private volatile Map<Schema, Map<Class<?>, Integer>> byUnion = new IdentityHashMap<>();

    private ClassResolvedUnionData(ClassLoader loader) {
        super(loader);
    }

    /** The model for a generated class: its own logical-type conversions, with cached union resolution. */
    public static ClassResolvedUnionData forClass(Class<?> type) {
        ClassResolvedUnionData data = new ClassResolvedUnionData(type.getClassLoader());
        SpecificData.getForClass(type).getConversions().forEach(data::addLogicalTypeConversion);
        return data;
    }

    @Override
    public int resolveUnion(Schema union, Object datum) {
        // Generated enums are GenericContainers too (GenericEnumSymbol), but their class names their schema.
        if (datum instanceof GenericContainer
            && !(datum instanceof SpecificRecord || datum instanceof SpecificFixed || datum instanceof Enum<?>)) {
            return super.resolveUnion(union, datum);
        }
        Map<Class<?>, Integer> branches = branchesOf(union);
        Class<?> type = datum == null ? NULL_DATUM : datum.getClass();
        Integer cached = branches.get(type);
        if (cached != null) {
            return cached;
        }
        int index = super.resolveUnion(union, datum);
        branches.put(type, index);
        return index;
    }

    private Map<Class<?>, Integer> branchesOf(Schema union) {
        Map<Class<?>, Integer> branches = byUnion.get(union);
        if (branches != null) {
            return branches;
        }
        synchronized (this) {
            branches = byUnion.get(union);
            if (branches == null) {
                Map<Schema, Map<Class<?>, Integer>> copy = new IdentityHashMap<>(byUnion);
                branches = new ConcurrentHashMap<>();
                copy.put(union, branches);
                byUnion = copy;
            }
            return branches;
        }
    }
}
