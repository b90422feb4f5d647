package jsonpatch

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzBuild: a value or patch made by walking its bytes is the one the
// decoder's tokens make: same kinds, text, numbers as written, members in
// order; and the walk never takes what the decoder refuses.
func FuzzBuild(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, ` true `, `-0.0e+5`, `"a\u00e9\n\"\\b"`, `{"a":1,"b":[1,"x",{"c":null}],"d":{}}`,
		`{"services":[{"id":"api","name":"API","series":"Core","volume":1200,"latency":60}]}`,
		`[{"op":"replace","path":"/services/0/latency","value":145}]`,
		`[{"op":"add","path":"/a/-","value":{"x":[true,false]}},{"op":"move","from":"/b","path":"/c"}]`,
		`[{"op":"test","path":"/a","value":null},{"op":1,"path":{}},{"op":"copy","from":"/x","path":"/y","extra":[1]}]`,
		`[{"op":"rem\u006fve","path":"/a~1b"}]`, `[{"op":"add","path":"/a","value":1,"value":2}]`, `[1]`, `{"a":1,"a":2}`,
		`[{"op":"remove","path":"/\ud83d\ude00"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Decode(data)
		want, wantErr := decodeTokens(data)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: Decode says %v, the decoder %v", data, err, wantErr)
		}
		if err == nil && describe(got) != describe(want) {
			t.Fatalf("%q: Decode made %s, the decoder %s", data, describe(got), describe(want))
		}
		ops, err := DecodeOps(data)
		wantOps, wantErr := decodeOpsTokens(data)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: DecodeOps says %v, the decoder %v", data, err, wantErr)
		}
		if len(ops) != len(wantOps) {
			t.Fatalf("%q: %d operations, the decoder %d", data, len(ops), len(wantOps))
		}
		for i := range ops {
			g, w := ops[i], wantOps[i]
			if g.Index != w.Index || g.Op != w.Op || g.Path != w.Path || g.From != w.From || describe(g.Value) != describe(w.Value) {
				t.Fatalf("%q: operation %d is %+v, the decoder's %+v", data, i, g, w)
			}
		}
	})
}

// describe is a value with each part's Go type, so that a string and a
// number of the same text differ, as do nil and an empty object.
func describe(v Value) string {
	switch v := v.(type) {
	case *Object:
		s := "{"
		for i, name := range v.names {
			s += fmt.Sprintf("%q:%s,", name, describe(v.values[i]))
		}
		return s + fmt.Sprintf("}%d", v.size)
	case *Array:
		s := "["
		for _, item := range v.items {
			s += describe(item) + ","
		}
		return s + fmt.Sprintf("]%d", v.size)
	}
	return fmt.Sprintf("%T(%#v)", v, v)
}

// BenchmarkDecode makes a state of n services from its JSON, by the walk
// over its bytes (Decode) and by the decoder's tokens.
func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{5, 100} {
		services := make([]string, n)
		for i := range services {
			services[i] = fmt.Sprintf(`{"id":"service-%d","name":"Service %d","series":"Core","volume":%d,"latency":%d.5}`, i, i, 100+i, i%300)
		}
		data := []byte(`{"services":[` + strings.Join(services, ",") + `]}`)
		for _, by := range []struct {
			name   string
			decode func([]byte) (Value, error)
		}{{"walk", Decode}, {"decoder", decodeTokens}} {
			b.Run(fmt.Sprintf("bytes=%d/by=%s", len(data), by.name), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := by.decode(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
