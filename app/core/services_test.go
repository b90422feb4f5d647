package core

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// A snapshot is read with a Yield after every yieldEvery bytes of its
// services, never inside a small one, and what is read does not depend on
// the Yields; the state a snapshot or a patch makes keeps its Yield.
func TestYieldSplitsABigSnapshot(t *testing.T) {
	stateOf := func(n int) []byte {
		services := make([]Service, n)
		for i := range services {
			services[i] = Service{ID: fmt.Sprintf("svc-%d", i), Name: fmt.Sprintf("Service %d", i), Series: CoreSeries, Volume: float64(i), Latency: 20}
		}
		data, _ := json.Marshal(map[string]any{"services": services})
		return data
	}
	for _, n := range []int{0, 10, 10000} {
		data := stateOf(n)
		yields := 0
		state, err := Services{Wire: NewWire(nil), Yield: func() { yields++ }}.Replace(data)
		if err != nil {
			t.Fatal(err)
		}
		// One Yield per yieldEvery bytes read, give or take the service
		// that crosses each line.
		if want := len(data) / yieldEvery; yields < want-1 || yields > want {
			t.Errorf("%d services (%d bytes): %d yields, want about %d", n, len(data), yields, want)
		}
		plain, err := DecodeWire(data)
		if err != nil {
			t.Fatal(err)
		}
		got := state.(Services)
		if !slices.Equal(got.Wire.Services(), plain.Services()) || got.Wire.Len() != n {
			t.Errorf("%d services: read with yields, the state differs", n)
		}
		patched, err := got.Patch([]jsonpatch.Op{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Yield == nil || patched.(Services).Yield == nil {
			t.Errorf("%d services: the Yield is lost (snapshot %v, patch %v)", n, got.Yield != nil, patched.(Services).Yield != nil)
		}
	}
}
