package dev.ringzero.kernel;

/**
 * Glob matching for trust rules: {@code *} matches any run of characters (also none), {@code ?} exactly
 * one, everything else itself. No escapes and no character classes: rules stay readable by the owner who
 * wrote them. Linear-time greedy matching with single backtracking, so no pattern can be made slow.
 */
final class Glob {

    private Glob() {
    }

    static boolean matches(String glob, String text, boolean ignoreCase) {
        int g = 0;
        int t = 0;
        int starAt = -1;
        int resumeAt = 0;
        while (t < text.length()) {
            if (g < glob.length() && glob.charAt(g) == '*') {
                starAt = g++;
                resumeAt = t;
            } else if (g < glob.length() && (glob.charAt(g) == '?' || same(glob.charAt(g), text.charAt(t), ignoreCase))) {
                g++;
                t++;
            } else if (starAt >= 0) {
                g = starAt + 1;
                t = ++resumeAt;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') {
            g++;
        }
        return g == glob.length();
    }

    private static boolean same(char a, char b, boolean ignoreCase) {
        return a == b || ignoreCase
                && (Character.toLowerCase(a) == Character.toLowerCase(b)
                        || Character.toUpperCase(a) == Character.toUpperCase(b));
    }
}
