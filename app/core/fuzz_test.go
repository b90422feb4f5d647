package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Patches whose operations each stay inside one service can be applied
// per service or to the whole state: both must give the same Wire or the
// same rejection. generatedPatch writes such patches from a byte program.
func generatedPatch(w Wire, program []byte) string {
	// Weighted towards operations that apply, so that results are compared
	// as often as rejections.
	members := []string{"latency", "volume", "latency", "volume", "id", "name", "series", "volume", "latency",
		"owner", "ID", "Latency", "", "x~1y", "a~0b", "tags/0", "__proto__", "latency/0"}
	values := []string{"145", "0", "-0", "1.0", "60", "92", "35", "1200", "640", "900", "2e2",
		"-1", "1e400", "null", `"x"`, `"api"`, `"checkout"`, `"Core"`, `"Platform"`, `" "`,
		`{"a":1}`, `[1,null]`, "true", `"` + strings.Repeat("n", 70) + `"`, `{"id":"api","name":"A","series":"Core","volume":1,"latency":1}`}
	kinds := []string{"replace", "replace", "replace", "test", "test", "add", "remove", "move", "copy"}
	next := func() int {
		if len(program) == 0 {
			return 0
		}
		b := program[0]
		program = program[1:]
		return int(b)
	}
	var ops []string
	for len(program) > 0 && len(ops) < 8 {
		kind := kinds[next()%len(kinds)]
		n := next() % w.Len()
		path := fmt.Sprintf("/services/%d/%s", n, members[next()%len(members)])
		op := fmt.Sprintf(`{"op":%q,"path":%q`, kind, path)
		switch kind {
		case "move", "copy":
			op += fmt.Sprintf(`,"from":"/services/%d/%s"`, n, members[next()%len(members)])
		case "add", "replace", "test":
			op += `,"value":` + values[next()%len(values)]
		}
		ops = append(ops, op+"}")
	}
	return "[" + strings.Join(ops, ",") + "]"
}

func checkPathsAgree(t *testing.T, w Wire, patch string) {
	t.Helper()
	ops := opsOf(t, patch)
	if !perService(w, ops) {
		t.Fatalf("generated a patch outside the services: %s", patch)
	}
	fast, fastR := applyPerService(w, ops)
	whole, wholeR := applyWhole(w, ops)
	switch {
	case (fastR == nil) != (wholeR == nil):
		t.Fatalf("%s\nper service: %v\nwhole state: %v", patch, fastR, wholeR)
	case fastR != nil && fastR.Error() != wholeR.Error():
		t.Fatalf("%s\nper service: %v\nwhole state: %v", patch, fastR, wholeR)
	case fastR == nil && !slices.Equal(fast.Services(), whole.Services()):
		t.Fatalf("%s\nper service: %+v\nwhole state: %+v", patch, fast.Services(), whole.Services())
	case fastR == nil:
		for i, s := range fast.All() {
			if j := fast.index()[s.ID]; j != i {
				t.Fatalf("%s: the index puts %s at %d, not %d", patch, s.ID, j, i)
			}
		}
	}
}

func FuzzPatchPaths(f *testing.F) {
	f.Add([]byte{2, 0, 4, 0})
	f.Add([]byte{5, 1, 4, 1, 2, 1, 4, 7})
	f.Add([]byte{2, 2, 0, 8, 2, 0, 0, 9})
	f.Fuzz(func(t *testing.T, program []byte) {
		checkPathsAgree(t, initialWire(), generatedPatch(initialWire(), program))
	})
}

// TestPatchPathsAgree runs thousands of generated patches through both
// documents in every test run; FuzzPatchPaths searches further.
func TestPatchPathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for range 5000 {
		program := make([]byte, 1+r.IntN(24))
		for i := range program {
			program[i] = byte(r.IntN(256))
		}
		patch := generatedPatch(initialWire(), program)
		checkPathsAgree(t, initialWire(), patch)
		if _, err := ApplyPatch(initialWire(), opsOf(t, patch)); err == nil {
			accepted++
		}
	}
	if accepted < 100 {
		t.Errorf("only %d of 5,000 generated patches applied: the comparison is mostly of rejections", accepted)
	}
	t.Logf("%d of 5,000 generated patches applied", accepted)
}
