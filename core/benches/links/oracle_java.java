// Gold for Java: compiles the project's sources with javac's tree API (JavacTask, Trees)
// and answers each query (file, line, name, kind, qual) with the declaration of the element
// the identifier `name` on that line refers to: of its occurrences there, the one that
// fits the query best (as fit.py: a `call` followed by `(` or `<T>(`, qual "a" → `a.name`,
// qual "Outer" (from `this`) also `this.name`, no qual → a `name` not after a `.`; a
// `type_ref` not followed by `(`), the first one among equals.
//
//   java oracle_java.java ROOT QUERIES.jsonl [SOURCE_ROOT...] > GOLD.jsonl
//
// All .java files under ROOT are compiled together (-proc:none, nothing written); missing
// dependencies only make their own references "unknown". Element declared in one of the
// compiled files → {"file","line"} (the line of the declared name); declared elsewhere
// (JDK, a jar) → null; no element, an error type, or no identifier of that name on the
// line → "unknown". An in-project package (import a.b.*) → "unknown". `new Foo(…)`: the
// class and, when written out, the chosen constructor are both acceptable (target/alts).
// A method call's target is the overload javac chose; the other same-named methods of
// the same class are listed in "alts" (a name-based linker cannot tell overloads apart).
import com.sun.source.tree.*;
import com.sun.source.util.*;
import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.tools.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class OracleJava {
    static Path root;
    static Trees trees;
    static SourcePositions sp;
    static Map<CompilationUnitTree, String> text = new HashMap<>();
    static Map<String, String[]> linesByRel = new HashMap<>();
    // rel file -> line -> name -> list of {col, target, alts}
    static Map<String, Map<Integer, Map<String, List<Object[]>>>> occ = new HashMap<>();

    public static void main(String[] args) throws Exception {
        root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<File> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java")).map(Path::toFile).sorted().collect(Collectors.toList());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, null, StandardCharsets.ISO_8859_1);
        List<String> opts = new ArrayList<>(List.of("-proc:none", "-nowarn", "-Xlint:none", "-encoding", "ISO-8859-1",
                "-implicit:none", "-Xmaxerrs", "100000"));
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, opts, null, fm.getJavaFileObjectsFromFiles(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        long errors = diags.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).count();
        System.err.println("oracle_java: " + files.size() + " files, " + errors + " compile errors (their references: unknown)");
        trees = Trees.instance(task);
        sp = trees.getSourcePositions();
        for (CompilationUnitTree cu : units) {
            text.put(cu, cu.getSourceFile().getCharContent(true).toString());
        }
        for (CompilationUnitTree cu : units) {
            Scanner sc = new Scanner(cu);
            linesByRel.put(sc.rel, text.get(cu).split("\n", -1));
            sc.scan(cu, null);
        }
        // Answer the queries.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        for (String l : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
            if (l.isBlank()) continue;
            String file = jstr(l, "file"), name = jstr(l, "name"), kind = jstr(l, "kind"), lang = jstr(l, "lang");
            int line = Integer.parseInt(jnum(l, "line"));
            // "qual": absent (an index without refs.qual) → any occurrence fits; null → bare.
            boolean hasQual = l.matches(".*\"qual\"\\s*:.*");
            String qual = jstr(l, "qual");
            if (lang != null && !lang.equals("java")) continue;
            Object target = "unknown";
            List<String> alts = List.of();
            String note = null;
            List<Object[]> os = occ.getOrDefault(file, Map.of()).getOrDefault(line, Map.of()).get(name);
            if (os != null && !os.isEmpty()) {
                String[] ls = linesByRel.getOrDefault(file, new String[0]);
                String lt = line >= 1 && line <= ls.length ? ls[line - 1] : "";
                Object[] best = os.get(0);
                int bestFit = fit(lt, (int) best[0], name, kind, hasQual, qual);
                for (Object[] o : os) {
                    int f = fit(lt, (int) o[0], name, kind, hasQual, qual);
                    if (f > bestFit || f == bestFit && (int) o[0] < (int) best[0]) { best = o; bestFit = f; }
                }
                // A `new Foo(` at the same place: for a call the constructor, for a type_ref the class.
                for (Object[] o : os) {
                    if ((int) o[0] == (int) best[0] && o.length > 3 && kind.equals("call")) best = o;
                }
                target = best[1];
                @SuppressWarnings("unchecked") List<String> a = (List<String>) best[2];
                alts = a;
            } else {
                note = "no identifier on the line";
            }
            StringBuilder sb = new StringBuilder();
            sb.append("{\"lang\":\"java\",\"file\":").append(q(file)).append(",\"line\":").append(line)
              .append(",\"name\":").append(q(name)).append(",\"kind\":").append(q(kind));
            if (hasQual) sb.append(",\"qual\":").append(qual == null ? "null" : q(qual));
            sb.append(",\"target\":")
              .append(target == null ? "null" : target.equals("unknown") ? "\"unknown\"" : target);
            if (!alts.isEmpty()) sb.append(",\"alts\":[").append(String.join(",", alts)).append("]");
            if (note != null) sb.append(",\"note\":").append(q(note));
            out.println(sb.append("}"));
        }
        out.flush();
    }

    static class Scanner extends TreePathScanner<Void, Void> {
        final CompilationUnitTree cu;
        final String rel;
        Scanner(CompilationUnitTree cu) {
            this.cu = cu;
            this.rel = root.relativize(Paths.get(cu.getSourceFile().toUri())).toString().replace('\\', '/');
        }
        void add(long pos, String name, Element el, boolean ctorCall) {
            if (pos < 0) return;
            int line = (int) cu.getLineMap().getLineNumber(pos);
            int col = (int) (pos - cu.getLineMap().getStartPosition(line)); // chars, tabs not expanded
            Object target;
            List<String> alts = new ArrayList<>();
            if (el == null || el.asType() != null && el.asType().getKind() == TypeKind.ERROR) {
                target = "unknown";
            } else if (el.getKind() == ElementKind.PACKAGE) {
                String pk = ((PackageElement) el).getQualifiedName().toString();
                target = inProjectPackage(pk) ? "unknown" : null;
            } else {
                target = declPos(el);
                if (el instanceof ExecutableElement && target != null && target instanceof String) {
                    // other overloads of the same name in the same class
                    Element owner = el.getEnclosingElement();
                    for (Element m : owner.getEnclosedElements()) {
                        if (m != el && m.getKind() == el.getKind() && m.getSimpleName().equals(el.getSimpleName())) {
                            Object p = declPos(m);
                            if (p instanceof String) alts.add((String) p);
                        }
                    }
                }
            }
            Object[] rec = ctorCall ? new Object[]{col, target, alts, true} : new Object[]{col, target, alts};
            occ.computeIfAbsent(rel, k -> new HashMap<>()).computeIfAbsent(line, k -> new HashMap<>())
               .computeIfAbsent(name, k -> new ArrayList<>()).add(rec);
        }
        @Override public Void visitIdentifier(IdentifierTree t, Void v) {
            add(sp.getStartPosition(cu, t), t.getName().toString(), trees.getElement(getCurrentPath()), false);
            return super.visitIdentifier(t, v);
        }
        @Override public Void visitMemberSelect(MemberSelectTree t, Void v) {
            long end = sp.getEndPosition(cu, t);
            String n = t.getIdentifier().toString();
            if (end > 0) add(nameStart(cu, end, n), n, trees.getElement(getCurrentPath()), false);
            return super.visitMemberSelect(t, v);
        }
        @Override public Void visitNewClass(NewClassTree t, Void v) {
            // `new Foo(…)` / `new a.Foo(…)` / `new Foo<T>(…)`: the constructor, at the class name.
            Tree id = t.getIdentifier();
            if (id instanceof ParameterizedTypeTree) id = ((ParameterizedTypeTree) id).getType();
            if (id instanceof AnnotatedTypeTree) id = ((AnnotatedTypeTree) id).getUnderlyingType();
            Element ctor = trees.getElement(getCurrentPath());
            String n = id instanceof IdentifierTree ? ((IdentifierTree) id).getName().toString()
                     : id instanceof MemberSelectTree ? ((MemberSelectTree) id).getIdentifier().toString() : null;
            if (n != null && ctor != null) {
                long pos = id instanceof IdentifierTree ? sp.getStartPosition(cu, id) : nameStart(cu, sp.getEndPosition(cu, id), n);
                Element cls = ctor.getEnclosingElement();
                Object cp = declPos(ctor), kp = declPos(cls);
                if (pos >= 0) {
                    int line = (int) cu.getLineMap().getLineNumber(pos);
                    int col = (int) (pos - cu.getLineMap().getStartPosition(line)); // chars, tabs not expanded
                    Object target = kp;
                    List<String> alts = new ArrayList<>();
                    if (cp instanceof String && kp instanceof String && !cp.equals(kp)) alts.add((String) cp);
                    occ.computeIfAbsent(rel, k -> new HashMap<>()).computeIfAbsent(line, k -> new HashMap<>())
                       .computeIfAbsent(n, k -> new ArrayList<>()).add(new Object[]{col, target, alts, true});
                }
            }
            return super.visitNewClass(t, v);
        }
    }

    // How well the occurrence of `name` at `col` of `text` fits the query (fit.py): 4 when
    // written as its qual says, + 2 for a member where the qual is a path, + 1 when as its
    // kind says.
    static final java.util.regex.Pattern CALL_AFTER = java.util.regex.Pattern.compile("^\\s*(?:<[^()]*>)?\\s*\\(");
    static final java.util.regex.Pattern PAREN_AFTER = java.util.regex.Pattern.compile("^\\s*\\(");
    static final java.util.regex.Pattern KEY_AFTER = java.util.regex.Pattern.compile("^\\s*:(?!:)"); // a label
    static final java.util.regex.Pattern PREV_IDENT = java.util.regex.Pattern.compile("([A-Za-z0-9_$]+)[?!]*$");
    static int fit(String text, int col, String name, String kind, boolean hasQual, String qual) {
        if (col < 0 || col + name.length() > text.length()) return 0;
        String after = text.substring(col + name.length());
        int n = 0;
        if (qualFits(text, col, name, hasQual, qual)) n += 4;
        // a path qual (a receiver's class need not be what is written) meets a member
        if (hasQual && qual != null && !qual.equals("?") && !qual.equals("!")) {
            String before = text.substring(0, col).stripTrailing();
            if (before.endsWith("::") || before.endsWith("->") || before.endsWith(".")) n += 2;
        }
        if (kind.equals("call")) { if (CALL_AFTER.matcher(after).find()) n++; }
        else if (kind.equals("type_ref")) { if (!PAREN_AFTER.matcher(after).find() && !KEY_AFTER.matcher(after).find()) n++; }
        else n++;
        return n;
    }
    static boolean qualFits(String text, int col, String name, boolean hasQual, String qual) {
        if (!hasQual) return true;
        String before = text.substring(0, col).stripTrailing();
        String sep = null;
        for (String s : new String[]{"::", "->", "."}) if (before.endsWith(s)) { sep = s; break; }
        if (qual == null) return sep == null;
        if (qual.equals("?")) return sep != null;
        if (qual.equals("!")) return text.substring(col + name.length()).stripLeading().startsWith("!");
        if (sep == null) return false;
        java.util.regex.Matcher m = PREV_IDENT.matcher(before.substring(0, before.length() - sep.length()).stripTrailing());
        if (!m.find()) return false;
        String prev = m.group(1);
        String last = qual.substring(qual.lastIndexOf('.') + 1);
        return prev.equals(last) || (!qual.contains(".") && List.of("self", "this", "Self", "cls").contains(prev));
    }

    static boolean inProjectPackage(String pk) {
        for (CompilationUnitTree cu : text.keySet()) {
            if (cu.getPackageName() != null && (cu.getPackageName().toString().equals(pk) || cu.getPackageName().toString().startsWith(pk + ".")))
                return true;
        }
        return false;
    }

    // Start of the simple name `n` that ends a member select ending at `end`.
    static long nameStart(CompilationUnitTree cu, long end, String n) {
        String s = text.get(cu);
        if (end < n.length() || end > s.length()) return -1;
        int i = s.lastIndexOf(n, (int) end - n.length());
        return i;
    }

    // {"file":…,"line":…} of an element's declared name when declared in a compiled file, else null.
    static Object declPos(Element el) {
        TreePath p = trees.getPath(el);
        if (p == null) return null; // not in these sources (JDK, jars)
        CompilationUnitTree cu = p.getCompilationUnit();
        Tree t = p.getLeaf();
        String s = text.get(cu);
        String name = el.getKind() == ElementKind.CONSTRUCTOR ? el.getEnclosingElement().getSimpleName().toString()
                                                                 : el.getSimpleName().toString();
        long start = sp.getStartPosition(cu, t);
        ModifiersTree mods = t instanceof ClassTree ? ((ClassTree) t).getModifiers()
                : t instanceof MethodTree ? ((MethodTree) t).getModifiers()
                : t instanceof VariableTree ? ((VariableTree) t).getModifiers() : null;
        if (mods != null && sp.getEndPosition(cu, mods) > start) start = sp.getEndPosition(cu, mods);
        long pos = start;
        if (!name.isEmpty() && start >= 0) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?<![A-Za-z0-9_$])" + java.util.regex.Pattern.quote(name) + "(?![A-Za-z0-9_$])").matcher(s);
            if (m.find((int) start)) pos = m.start();
        }
        if (pos < 0) return "\"unknown\"";
        String rel = root.relativize(Paths.get(cu.getSourceFile().toUri())).toString().replace('\\', '/');
        return "{\"file\":" + q(rel) + ",\"line\":" + cu.getLineMap().getLineNumber(pos) + ",\"name\":" + q(name) + "}";
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
    // Minimal readers for the flat query objects (string and number values only).
    static String jstr(String l, String k) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + k + "\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(l);
        if (!m.find()) return null;
        return m.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
    }
    static String jnum(String l, String k) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + k + "\"\\s*:\\s*(\\d+)").matcher(l);
        return m.find() ? m.group(1) : "0";
    }
}
