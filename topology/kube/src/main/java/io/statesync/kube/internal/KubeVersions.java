package io.statesync.kube.internal;

import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' version priority, by which discovery lists a group's versions and picks the preferred one: GA versions
 * ({@code v2}, {@code v1}) by major version, highest first; then betas and then alphas, by major and then by their
 * number, highest first; then any other name in alphabetical order.
 */
final class KubeVersions {

    private static final Pattern KUBE = Pattern.compile("v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?");

    static final Comparator<String> PRIORITY = Comparator.comparingInt(KubeVersions::stage)
        .thenComparing(KubeVersions::major, Comparator.reverseOrder())
        .thenComparing(KubeVersions::minor, Comparator.reverseOrder())
        .thenComparing(Comparator.naturalOrder());

    private KubeVersions() {
    }

    static void sortByPriority(List<String> versions) {
        versions.sort(PRIORITY);
    }

    /** 0 for GA, 1 for beta, 2 for alpha, 3 for a name that is not a Kubernetes version. */
    private static int stage(String v) {
        Matcher m = KUBE.matcher(v);
        if (!m.matches()) {
            return 3;
        }
        return m.group(2) == null ? 0 : "beta".equals(m.group(2)) ? 1 : 2;
    }

    private static long major(String v) {
        Matcher m = KUBE.matcher(v);
        return m.matches() ? parse(m.group(1)) : 0;
    }

    private static long minor(String v) {
        Matcher m = KUBE.matcher(v);
        return m.matches() && m.group(3) != null ? parse(m.group(3)) : 0;
    }

    private static long parse(String digits) {
        return digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
    }
}
