package specfile

import "strings"

// DefaultArch is the architecture Parse assumes when Options.Arch is empty.
const DefaultArch = "x86_64"

// archInfo is what the macros need to know about an architecture: its library directory name
// (%{_lib}) and its ISA tag (%{_isa}, as in "Requires: libfoo%{?_isa}").
type archInfo struct{ lib, isa string }

// knownArchs are the architectures OBS-style repositories commonly build for. An unknown arch
// still parses, with %{_lib} "lib" and no %{_isa}.
var knownArchs = map[string]archInfo{
	"x86_64":      {"lib64", "x86-64"},
	"i386":        {"lib", "x86-32"},
	"i486":        {"lib", "x86-32"},
	"i586":        {"lib", "x86-32"},
	"i686":        {"lib", "x86-32"},
	"aarch64":     {"lib64", "aarch-64"},
	"armv6l":      {"lib", "arm-32"},
	"armv6hl":     {"lib", "arm-32"},
	"armv7l":      {"lib", "arm-32"},
	"armv7hl":     {"lib", "arm-32"},
	"ppc64le":     {"lib64", "ppc-64"},
	"ppc64":       {"lib64", "ppc-64"},
	"s390x":       {"lib64", "s390-64"},
	"riscv64":     {"lib64", "riscv-64"},
	"loongarch64": {"lib64", "loongarch-64"},
}

// archMacros are rpm's architecture lists (macros.in), for ExclusiveArch: %{ix86} and %ifarch.
var archMacros = map[string]string{
	"ix86":        "i386 i486 i586 i686 pentium3 pentium4 athlon geode",
	"x86_64":      "x86_64 x86_64_v2 x86_64_v3 x86_64_v4 amd64 em64t",
	"arm32":       "armv3l armv4b armv4l armv4tl armv5tl armv5tel armv5tejl armv6l armv6hl armv7l armv7hl armv7hnl armv8l armv8hl armv8hnl armv8hcnl",
	"arm":         "%{arm32}",
	"arm64":       "aarch64",
	"aarch64":     "aarch64",
	"power64":     "ppc64 ppc64p7 ppc64le",
	"s390x":       "s390x",
	"riscv32":     "riscv32",
	"riscv64":     "riscv64",
	"riscv128":    "riscv128",
	"riscv":       "%{riscv32} %{riscv64} %{riscv128}",
	"loongarch64": "loongarch64",
	"mips32":      "mips mipsel mipsr6 mipsr6el",
	"mips64":      "mips64 mips64el mips64r6 mips64r6el",
	"mips":        "%{mips32} %{mips64}",
	"sparc":       "sparc sparcv8 sparcv9 sparcv9v sparc64 sparc64v",
	"alpha":       "alpha alphaev56 alphaev6 alphaev67",
}

// defaultMacros is the macro set of the simulated build root: rpm's directory macros, a build
// tree under /home/abuild/rpmbuild as OBS workers have it, and the build-system helpers
// (%configure, %make_build, %cmake, %meson, %py3_build, …) as one plain command line each, so
// the build log shows what a real build would run. Options.Macros and the spec override them.
var defaultMacros = map[string]string{
	"_prefix":            "/usr",
	"_exec_prefix":       "%{_prefix}",
	"_bindir":            "%{_exec_prefix}/bin",
	"_sbindir":           "%{_exec_prefix}/sbin",
	"_libexecdir":        "%{_exec_prefix}/libexec",
	"_datadir":           "%{_prefix}/share",
	"_sysconfdir":        "/etc",
	"_sharedstatedir":    "/var/lib",
	"_localstatedir":     "/var",
	"_var":               "/var",
	"_usr":               "/usr",
	"_tmppath":           "%{_var}/tmp",
	"_libdir":            "%{_exec_prefix}/%{_lib}",
	"_includedir":        "%{_prefix}/include",
	"_infodir":           "%{_datadir}/info",
	"_mandir":            "%{_datadir}/man",
	"_docdir":            "%{_datadir}/doc/packages",
	"_defaultdocdir":     "%{_datadir}/doc/packages",
	"_licensedir":        "%{_datadir}/licenses",
	"_defaultlicensedir": "%{_datadir}/licenses",
	"_unitdir":           "/usr/lib/systemd/system",
	"_userunitdir":       "/usr/lib/systemd/user",
	"_tmpfilesdir":       "/usr/lib/tmpfiles.d",
	"_sysusersdir":       "/usr/lib/sysusers.d",
	"_rundir":            "/run",
	"_topdir":            "/home/abuild/rpmbuild",
	"_builddir":          "%{_topdir}/BUILD",
	"_sourcedir":         "%{_topdir}/SOURCES",
	"_specdir":           "%{_topdir}/SPECS",
	"_rpmdir":            "%{_topdir}/RPMS",
	"_srcrpmdir":         "%{_topdir}/SRPMS",
	"_buildrootdir":      "%{_topdir}/BUILDROOT",
	"buildroot":          "%{_buildrootdir}/%{name}-%{version}-%{release}.%{_arch}",
	"_target_os":         "linux",
	"_host_os":           "linux",
	"_build_os":          "linux",
	"_os":                "linux",
	"_vendor":            "pocket",
	"_target_platform":   "%{_target_cpu}-%{_vendor}-%{_target_os}",
	"_host":              "%{_host_cpu}-%{_vendor}-%{_host_os}-gnu",
	"_build":             "%{_host}",
	"_target":            "%{_host}",
	"optflags":           "-O2 -Wall -D_FORTIFY_SOURCE=2 -fstack-protector-strong -funwind-tables -fasynchronous-unwind-tables -fstack-clash-protection -g",
	"_smp_build_ncpus":   "4",
	"_smp_mflags":        "-j%{_smp_build_ncpus}",
	"__make":             "/usr/bin/make",
	"__cc":               "gcc",
	"__cxx":              "g++",
	"__install":          "/usr/bin/install",
	"__cp":               "/usr/bin/cp",
	"__mv":               "/usr/bin/mv",
	"__rm":               "/usr/bin/rm",
	"__mkdir_p":          "/usr/bin/mkdir -p",
	"__ln_s":             "ln -s",
	"__sed":              "/usr/bin/sed",
	"__tar":              "/usr/bin/tar",
	"__python3":          "/usr/bin/python3",
	"__cmake":            "/usr/bin/cmake",
	"__ctest":            "/usr/bin/ctest",
	"__meson":            "/usr/bin/meson",
	"__cmake_builddir":   "build",
	"_vpath_builddir":    "build",
	"make_build":         "%{__make} %{?_smp_mflags}",
	"make_install":       "%{__make} install DESTDIR=%{?buildroot} INSTALL=\"%{__install} -p\"",
	"makeinstall":        "%{__make} install DESTDIR=%{?buildroot}",
	"configure": "./configure --host=%{_host} --build=%{_build} --prefix=%{_prefix} " +
		"--exec-prefix=%{_exec_prefix} --bindir=%{_bindir} --sbindir=%{_sbindir} " +
		"--sysconfdir=%{_sysconfdir} --datadir=%{_datadir} --includedir=%{_includedir} " +
		"--libdir=%{_libdir} --libexecdir=%{_libexecdir} --localstatedir=%{_localstatedir} " +
		"--sharedstatedir=%{_sharedstatedir} --mandir=%{_mandir} --infodir=%{_infodir}",
	"cmake": "%{__cmake} -S . -B %{__cmake_builddir} -DCMAKE_INSTALL_PREFIX:PATH=%{_prefix} " +
		"-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIB_INSTALL_DIR:PATH=%{_libdir}",
	"cmake_build":        "%{__cmake} --build %{__cmake_builddir} %{?_smp_mflags} --verbose",
	"cmake_install":      "DESTDIR=\"%{buildroot}\" %{__cmake} --install %{__cmake_builddir}",
	"ctest":              "%{__ctest} --test-dir %{__cmake_builddir} --output-on-failure %{?_smp_mflags}",
	"meson":              "%{__meson} setup --buildtype=plain --prefix=%{_prefix} --libdir=%{_libdir} %{_vpath_builddir}",
	"meson_build":        "%{__meson} compile -C %{_vpath_builddir} -j %{_smp_build_ncpus} --verbose",
	"meson_install":      "DESTDIR=%{buildroot} %{__meson} install -C %{_vpath_builddir} --no-rebuild",
	"meson_test":         "%{__meson} test -C %{_vpath_builddir} --num-processes %{_smp_build_ncpus} --print-errorlogs",
	"python3":            "%{__python3}",
	"python3_version":    "3.11",
	"python3_pkgversion": "3",
	"python3_sitelib":    "/usr/lib/python%{python3_version}/site-packages",
	"python3_sitearch":   "%{_libdir}/python%{python3_version}/site-packages",
	"python_sitelib":     "%{python3_sitelib}",
	"py3_build":          "%{__python3} setup.py build",
	"py3_install":        "%{__python3} setup.py install --skip-build --root %{buildroot} --prefix %{_prefix}",
	"pyproject_wheel":    "%{__python3} -m pip wheel --no-deps --no-build-isolation --wheel-dir ./build/wheels .",
	"pyproject_install":  "%{__python3} -m pip install --no-deps --root %{buildroot} --prefix %{_prefix} ./build/wheels/*.whl",
	"pytest":             "PYTHONPATH=%{buildroot}%{python3_sitelib} /usr/bin/pytest",
	"ldconfig":           "/sbin/ldconfig",
	"find_lang":          "/usr/lib/rpm/find-lang.sh %{buildroot}",
	"fdupes":             "/usr/lib/rpm/fdupes_wrapper",
	"nil":                "%{!?nil}",
	// rpm's own definitions of the build conditionals, run by the parametric engine.
	"with":    "%{expand:%%{?with_%{1}:1}%%{!?with_%{1}:0}}",
	"without": "%{expand:%%{?with_%{1}:0}%%{!?with_%{1}:1}}",
}

// paramDefaults are the defaults above that take arguments, with their getopt strings.
var paramDefaults = map[string]string{"with": "", "without": "", "ldconfig_scriptlets": "n:"}

// baseMacros is the layer of macros every Parse shares: the built-ins, defaultMacros,
// paramDefaults and archMacros. It is built once, by init after builtinFuncs, and never changed.
var baseMacros map[string]*macro

func buildBaseMacros() map[string]*macro {
	m := make(map[string]*macro, len(builtinFuncs)+len(defaultMacros)+len(archMacros))
	for name, fn := range builtinFuncs {
		m[name] = &macro{fn: fn.fn, line: fn.line}
	}
	for name, body := range defaultMacros {
		m[name] = &macro{body: body}
	}
	for name, body := range archMacros {
		m[name] = &macro{body: body}
	}
	for name, opts := range paramDefaults {
		m[name] = &macro{body: defaultMacros[name], param: true, opts: opts}
	}
	return m
}

// loadDefaults defines the macros that depend on arch, then the caller's.
func (e *expander) loadDefaults(arch string, user map[string]string) {
	info, ok := knownArchs[arch]
	if !ok {
		info.lib = "lib"
	}
	for _, n := range [...]string{"_arch", "_target_cpu", "_host_cpu", "_build_cpu", "_build_arch"} {
		e.define(n, arch, nil)
	}
	e.define("_lib", info.lib, nil)
	if info.isa != "" {
		e.define("__isa", info.isa, nil)
		e.define("_isa", "(%{__isa})", nil)
	}
	for name, body := range user {
		name = strings.TrimPrefix(name, "%")
		if m := e.lookup(name); name == "" || m != nil && m.fn != nil {
			continue
		}
		e.define(name, body, nil)
	}
}
