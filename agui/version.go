package agui

import (
	"strconv"
	"strings"
)

// Version is a protocol version as AG-UI publishes them: MAJOR.MINOR,
// compared numerically (1.10 is newer than 1.9). Versions before 1.0 were
// written MAJOR.MINOR.PATCH (0.0.57); the third part is compared too.
// Versions order as numbers do: v < w when v is older than w.
type Version uint64

// versionPart is what one part of a Version counts in: six decimal digits
// each for MINOR and PATCH, so that 1.1 is 1_000001_000000.
const versionPart = 1_000000

// The versions this engine speaks.
const (
	// Current is the newest version this engine speaks: what
	// Input.Request declares, and what producers are judged against
	// unless Options.Speak says otherwise.
	Current Version = 1_000001_000000
	// V1_0 is AG-UI 1.0, which 1.1 only adds to: a consumer may still
	// speak it.
	V1_0 Version = 1_000000_000000
)

// ParseVersion reads a version; ok is false for anything that is not
// one, or has a part of a million or more.
func ParseVersion(s string) (v Version, ok bool) {
	for fields := 1; ; fields++ {
		part, rest, more := strings.Cut(s, ".")
		n, number := versionNumber(part)
		if !number || fields > 3 {
			return 0, false
		}
		v = v*versionPart + n
		switch {
		case more:
			s = rest
		case fields == 1:
			return 0, false
		case fields == 2:
			return v * versionPart, true // MAJOR.MINOR is MAJOR.MINOR.0
		default:
			return v, true
		}
	}
}

// versionNumber reads one part of a version: decimal digits as written
// canonically (no sign, no leading zero), less than versionPart. Read by
// hand: a server reads the client's version on every request, and
// strconv's Atoi with Itoa to check the form cost some 150 ns.
func versionNumber(s string) (Version, bool) {
	if s == "" || len(s) > 6 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	var n Version
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + Version(s[i]-'0')
	}
	return n, true
}

// Major is the version's line: 1 for 1.0 and 1.10.
func (v Version) Major() int { return int(v / (versionPart * versionPart)) }

// Before reports whether v is older than w.
func (v Version) Before(w Version) bool { return v < w }

// String is the version as declared on the wire: "1.1", "0.0.57".
func (v Version) String() string {
	minor, patch := int(v/versionPart%versionPart), int(v%versionPart)
	s := strconv.Itoa(v.Major()) + "." + strconv.Itoa(minor)
	if patch != 0 || v.Major() == 0 {
		s += "." + strconv.Itoa(patch)
	}
	return s
}
