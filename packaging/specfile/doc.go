// Package specfile reads RPM spec files the way the simulated build farm needs them: whether a
// package is excluded on an architecture (ExclusiveArch/ExcludeArch), broken (the spec does not
// parse; the *Error names the line, worded like rpmbuild), or unresolvable (its BuildRequires),
// which binary packages a build yields (one per package with a %files section, with Provides and
// Requires), what the build log shows (%prep, %build, %install, %check with macros expanded) and
// whether the build fails (Spec.Failure). It also owns rpm's version order (Vercmp, EVRCompare,
// Overlap), which the resolver needs for versioned dependencies.
//
// The parser follows rpmbuild's own (build/parseSpec.cc, parsePreamble.cc, parseReqs.cc,
// rpmio/macro.cc, expression.c): lines are joined on a trailing backslash or an open %{, %( or
// %[; %if/%elif/%else/%endif, %ifarch/%ifnarch/%elifarch and %ifos/%ifnos are followed with
// rpm's checks; lines in a false branch are not expanded; every line that is read is
// macro-expanded before it is classified; preamble tags are matched with rpm's table and checked
// with rpm's rules; sections start at the beginning of a line.
//
// Macros: %define and %global (also inside %{!?x: %global x y}, with parametric "(opts)" macros
// and %1, %*, %#, %{-f}, %{-f*}), %undefine, %{?x}, %{!?x}, %{?x:text}, %{!?x:text}, %%,
// %{expand:}, %{quote:}, %{basename:}, %{dirname:}, %{suffix:}, %{upper:}, %{lower:}, %{len:},
// %{shrink:}, %{url2path:}, %{S:n}, %{P:n}, %{defined x}, %{undefined x}, %{error:msg} (a parse
// error), %[expression], %bcond_with, %bcond_without, %bcond, %{with x}, %{without x}, the
// tag macros (%{name}, %{version}, %{release}, %{epoch}, %{summary}, … and %{NAME}, …),
// %{SOURCEn}/%{PATCHn}, the directory macros (%{_bindir}, %{_libdir} — lib64 on 64-bit arches,
// lib on i586 and armv7l —, %{_datadir}, …), %{buildroot}, %{_arch}, %{_target_cpu},
// %{optflags}, %{?_smp_mflags}, %{?_isa} and the build-system helpers (%configure, %make_build,
// %make_install, %cmake, %cmake_build, %ctest, %meson…, %py3_build, %pyproject_wheel, …) as plain
// command lines; see defaultMacros. Options.Macros (the project config's %dist, %_vendor, …) are
// defined before the spec's own. Expansion is bounded (MaxMacroDepth levels, MaxExpansionGrowth
// bytes), so a self-referencing macro is an error, not a hang.
//
// What a build produces: Spec.Packages, each with its Provides (AllProvides adds rpm's own
// "name = EVR" and "name(ISA) = EVR"), Requires (with scriptlet interpreters, as rpm adds them)
// and %files, both as written (Files) and read into paths with their directives (Entries).
// The tests compare all of this, and the error texts, with the real rpmspec when it is installed.
//
// Left out, because the farm runs no shell, reads no other file and simulates its builds:
// %(shell) and %{lua:…} stay in the text unexpanded (as rpm leaves an unknown macro), %include is
// an error, %setup/%autosetup/%patch stay as lines of %prep, scriptlet bodies (%pre, %post,
// triggers), %changelog and %clean are read and dropped, %generate_buildrequires is ignored, and
// translations (Summary(de), %description -l de) are dropped. A package without Summary, License
// or %description is not a parse error but a BuildError: rpmbuild refuses it only when it
// finalises the spec, and OBS, whose scheduler does not check it, reports a failed build.
package specfile
