package agui

import (
	"strconv"
	"strings"
)

// Version is a protocol version as 1.0 publishes them: MAJOR.MINOR,
// compared numerically (1.10 is newer than 1.9). Versions before 1.0 were
// written MAJOR.MINOR.PATCH (0.0.57); the third part is compared too.
type Version struct{ parts [3]int }

// Current is the newest version this engine speaks, and what it declares
// unless told to speak an older one (Options.Speak).
var Current = Version{[3]int{1, 1, 0}}

// CurrentText is Current as declared on the wire.
const CurrentText = "1.1"

// V1_0 is AG-UI 1.0, which 1.1 only adds to: a consumer may still speak it.
var V1_0 = Version{[3]int{1, 0, 0}}

// ParseVersion reads a version; ok is false for anything that is not one.
func ParseVersion(s string) (v Version, ok bool) {
	fields := 0
	for f := range strings.SplitSeq(s, ".") {
		n, err := strconv.Atoi(f)
		if fields == len(v.parts) || err != nil || n < 0 || f != strconv.Itoa(n) {
			return Version{}, false
		}
		v.parts[fields] = n
		fields++
	}
	if fields < 2 {
		return Version{}, false
	}
	return v, true
}

// Major is the version's line: 1 for 1.0 and 1.10.
func (v Version) Major() int { return v.parts[0] }

// Before reports whether v is older than w.
func (v Version) Before(w Version) bool {
	for i := range v.parts {
		if v.parts[i] != w.parts[i] {
			return v.parts[i] < w.parts[i]
		}
	}
	return false
}

func (v Version) String() string {
	s := strconv.Itoa(v.parts[0]) + "." + strconv.Itoa(v.parts[1])
	if v.parts[2] != 0 || v.parts[0] == 0 {
		s += "." + strconv.Itoa(v.parts[2])
	}
	return s
}
