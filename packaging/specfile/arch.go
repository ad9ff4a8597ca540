package specfile

// Excluded tells whether the spec is excluded from building on arch, and why, in rpm's words:
// when ExclusiveArch lists architectures and arch is not among them ("Architecture is not
// included: aarch64"), or when ExcludeArch lists it ("Architecture is excluded: i586").
//
// As OBS's scheduler does, the comparison is with the repository's architecture, exactly: rpm's
// arch macros are already expanded in the lists (%{ix86} is "i386 i486 i586 i686 pentium3
// pentium4 athlon geode", %{arm} the 32-bit ARM arches, %{arm64} and %{aarch64} "aarch64",
// %{x86_64} "x86_64 … amd64 em64t", %{power64} "ppc64 ppc64p7 ppc64le", %{riscv64}, %{s390x},
// %{mips…}, %{sparc}, %{alpha}, %{loongarch64}). A noarch spec (BuildArch: noarch) is not special:
// it builds on every arch of the repository unless these lists say otherwise. Lists the spec
// computes with %ifarch are those of the arch it was parsed for, so parse with Options.Arch set
// to arch for an exact answer.
func (s *Spec) Excluded(arch string) (bool, string) {
	if len(s.ExclusiveArch) > 0 && !contains(s.ExclusiveArch, arch) {
		return true, "Architecture is not included: " + arch
	}
	if contains(s.ExcludeArch, arch) {
		return true, "Architecture is excluded: " + arch
	}
	return false, ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
