package core

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// opsOf reads a JSON array of operations as the engine hands them over:
// op, path, from and value, each by its index.
func opsOf(t testing.TB, ops string) []jsonpatch.Op {
	t.Helper()
	v, err := jsonpatch.Decode([]byte(ops))
	if err != nil {
		t.Fatalf("%s: %v", ops, err)
	}
	var out []jsonpatch.Op
	for i, item := range v.(*jsonpatch.Array).Items() {
		o := item.(*jsonpatch.Object)
		op := jsonpatch.Op{Index: i}
		for _, name := range o.Names() {
			v, _ := o.Get(name)
			switch name {
			case "op":
				op.Op, _ = v.(string)
			case "path":
				op.Path, _ = v.(string)
			case "from":
				op.From, _ = v.(string)
			case "value":
				op.Value = v
			}
		}
		out = append(out, op)
	}
	return out
}

func initialWire() Wire {
	return NewWire([]Service{
		{ID: "api", Name: "API", Series: CoreSeries, Volume: 1200, Latency: 60},
		{ID: "checkout", Name: "Checkout", Series: CoreSeries, Volume: 640, Latency: 92},
		{ID: "auth", Name: "Auth", Series: PlatformSeries, Volume: 900, Latency: 35},
	})
}
