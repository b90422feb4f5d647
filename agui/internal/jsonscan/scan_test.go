package jsonscan

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzObject: what Object vouches for, the decoder reads without error,
// member for member, byte for byte; Object may give up on anything,
// never disagree.
func FuzzObject(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got [][2]string
		if !Object(data, func(name, value []byte) { got = append(got, [2]string{string(name), string(value)}) }) {
			return
		}
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		if _, err := dec.ReadToken(); err != nil {
			t.Fatalf("Object read %q, the decoder refuses it: %v", data, err)
		}
		var want [][2]string
		for dec.PeekKind() != '}' {
			name, err := dec.ReadValue()
			if err != nil {
				t.Fatalf("Object read %q, the decoder refuses it: %v", data, err)
			}
			member := [2]string{string(name)} // the decoder's next read may write over name
			value, err := dec.ReadValue()
			if err != nil {
				t.Fatalf("Object read %q, the decoder refuses it: %v", data, err)
			}
			member[1] = string(value)
			want = append(want, member)
		}
		if _, err := dec.ReadToken(); err != nil {
			t.Fatalf("Object read %q, the decoder refuses it: %v", data, err)
		}
		if _, err := dec.ReadToken(); err != io.EOF {
			t.Fatalf("Object read %q, the decoder finds more after it: %v", data, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: members\n%q\nthe decoder's\n%q", data, got, want)
		}
	})
}

// FuzzValid: what Valid vouches for is one JSON value the decoder reads
// without error.
func FuzzValid(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{`1`, ` -0.5e7 `, `"\u00e9"`, `[]`, `[1,[2,{"a":null}]]`, `true`, `nul`, `01`, `[1,]`, `"` + "\xc3" + `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !Valid(data) {
			return
		}
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		if _, err := dec.ReadValue(); err != nil {
			t.Fatalf("Valid read %q, the decoder refuses it: %v", data, err)
		}
		if _, err := dec.ReadToken(); err != io.EOF {
			t.Fatalf("Valid read %q, the decoder finds more after it: %v", data, err)
		}
	})
}

// seeds are the decoder's edge cases: each either read alike or left to
// the decoder.
var seeds = []string{
	`{}`, ` {} `, `{"a":1}`, "{\n\t\"a\" :\r\n -1.5e+3 , \"b\":true,\"c\":false ,\"d\" : null}",
	`{"a":"x","a":"y"}`, `{"a":{"b":1,"b":2}}`, `{"a":{"b":1},"c":{"b":2}}`, `{"a":[{"b":1},{"b":1}]}`,
	`{"a":"\u00e9\ud83d\ude00"}`, `{"a":"\ud800"}`, `{"a":"\udc00\ud800"}`, `{"\u0061":1,"a":2}`,
	`{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12G4"}`, `{"a":"` + "\x01" + `"}`, `{"a":"` + "\xff" + `"}`,
	`{"a":"` + "\xed\xa0\x80" + `"}`, `{"a":"é"}`, `{"a":"\/\b\f\n\r\t\"\\"}`, `{"é":1}`, `{"` + "\xff" + `":1}`,
	`{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":1e+}`, `{"a":-0.0e-0}`, `{"a":1E5}`,
	`{"a":tru}`, `{"a":truex}`, `{"a":nul}`, `{"a":[1,]}`, `{"a":1,}`, `{,}`, `{"a" 1}`, `{"a":}`,
	`{"a":[1 2]}`, `{"a":[}`, `{"a":{]}`, `{"a":1}}`, `{"a":1} x`, `{"a":1}{}`, `[1]`, `"a"`, ``, `{`,
	`{"a":1` + "\x00" + `}`, "{\"a\":1}\n", "\ufeff{}", `{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
	`{"a\"b":"c\\","\\":"\"}{]["}`, `{"x":{"y":[1,{"z":"]}"}],"w":{}},"v":[],"u":[[[]]]}`,
	`{"threadId":"t","runId":"r","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`,
}

// TestObjectReadsWhatAStreamCarries: the events and inputs a stream
// carries take the one pass; past the names it holds, it gives up.
func TestObjectReadsWhatAStreamCarries(t *testing.T) {
	many := make([]string, MaxNames)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	for _, s := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Hello, \"world\"\n\u00e9 ✓"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/status","value":"degraded"}]}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"api","latencyMs":12.5,"up":true,"tags":null}]}}`,
		`{"threadId":"t","runId":"r","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`,
		`{` + strings.Join(many, ",") + `}`,
	} {
		n := 0
		if !Object([]byte(s), func(_, _ []byte) { n++ }) || n == 0 {
			t.Errorf("Object gave up on %s", s)
		}
		if !Valid([]byte(s)) {
			t.Errorf("Valid gave up on %s", s)
		}
	}
	over := `{` + strings.Join(append(many, `"last":0`), ",") + `}`
	if Object([]byte(over), func(_, _ []byte) {}) {
		t.Errorf("Object read an object of %d names, more than it holds", MaxNames+1)
	}
}

// BenchmarkObject reads a snapshot event of n services, by Object and by
// the decoder, value by value as readTop did.
func BenchmarkObject(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		services := make([]string, n)
		for i := range services {
			services[i] = fmt.Sprintf(`{"id":"service-%d","name":"Service %d","series":"Core","volume":%d,"latency":%d.5}`, i, i, 100+i, i%300)
		}
		data := []byte(`{"type":"STATE_SNAPSHOT","snapshot":{"services":[` + strings.Join(services, ",") + `]}}`)
		b.Run(fmt.Sprintf("bytes=%d/by=scan", len(data)), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !Object(data, func(_, _ []byte) {}) {
					b.Fatal("gave up")
				}
			}
		})
		b.Run(fmt.Sprintf("bytes=%d/by=decoder", len(data)), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			dec := jsontext.NewDecoder(bytes.NewReader(nil))
			for b.Loop() {
				dec.Reset(bytes.NewReader(data))
				dec.ReadToken()
				for dec.PeekKind() != '}' {
					dec.ReadValue()
					if _, err := dec.ReadValue(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
