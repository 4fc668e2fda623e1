package io.statesync.ops;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The {@code # HELP} lines of a Prometheus text scrape. */
public final class PrometheusHelp {

    private PrometheusHelp() {
    }

    /**
     * The metric families named {@code prefix...} (by their {@code # TYPE} line) whose {@code # HELP} line is missing
     * or blank; Micrometer writes a blank one for a meter registered without a description.
     */
    public static Set<String> familiesWithoutHelp(String scrape, String prefix) {
        Map<String, String> help = new TreeMap<>();
        Set<String> families = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("# HELP " + prefix)) {
                String rest = line.substring("# HELP ".length());
                int space = rest.indexOf(' ');
                help.put(space < 0 ? rest : rest.substring(0, space), space < 0 ? "" : rest.substring(space + 1).trim());
            } else if (line.startsWith("# TYPE " + prefix)) {
                families.add(line.split(" ")[2]);
            }
        }
        Set<String> without = new TreeSet<>();
        for (String family : families) {
            if (help.getOrDefault(family, "").isEmpty()) {
                without.add(family);
            }
        }
        return without;
    }
}
