package jsonscan

import (
	"bytes"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzMembers: splitting an object the decoder found valid gives the
// members the decoder gives read one value at a time, in order, each
// name and value byte for byte.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{
		`{}`,
		` { } `,
		`{"a":1}`,
		"{\n\t\"a\" :\r\n -1.5e+3 , \"b\":true,\"c\":false ,\"d\" : null}",
		`{"a\"b":"c\\","\\":"\"}{]["}`,
		`{"x":{"y":[1,{"z":"]}"}],"w":{}},"v":[],"u":[[[]]]}`,
		`{"\u00e9":"\ud83d\ude00","t":"a\nb"}`,
		`{"a":"}","b":"{","c":"[","d":"]","e":","}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		if dec.PeekKind() != '{' {
			return
		}
		object, err := dec.ReadValue()
		if err != nil {
			return
		}
		var want [][2]string
		one := jsontext.NewDecoder(bytes.NewReader(object))
		one.ReadToken()
		for one.PeekKind() != '}' {
			name, _ := one.ReadValue()
			member := [2]string{string(name)} // the decoder's next read may write over name
			value, _ := one.ReadValue()
			member[1] = string(value)
			want = append(want, member)
		}
		var got [][2]string
		for name, value := range Members(object) {
			got = append(got, [2]string{string(name), string(value)})
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d members, want %d:\n%q\n%q", object, len(got), len(want), got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: member %d is %q, want %q", object, i, got[i], want[i])
			}
		}
	})
}

// FuzzElements: splitting an array the decoder found valid gives the
// elements the decoder gives read one value at a time, in order, each
// byte for byte.
func FuzzElements(f *testing.F) {
	for _, s := range []string{
		`[]`,
		` [ ] `,
		`[1]`,
		"[\n\t1 ,\r\n -1.5e+3 , true,false ,null , \"\"]",
		`["a\"b","c\\","]","[",",",{"]":"["}]`,
		`[[[]],{},[{"a":[1,2]}],{"x":{"y":"}"}}]`,
		`["\u00e9","\ud83d\ude00","a\nb"]`,
		`[{"op":"replace","path":"/a/0","value":{"b":[1]}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		if dec.PeekKind() != '[' {
			return
		}
		array, err := dec.ReadValue()
		if err != nil {
			return
		}
		var want []string
		one := jsontext.NewDecoder(bytes.NewReader(array))
		one.ReadToken()
		for one.PeekKind() != ']' {
			value, _ := one.ReadValue()
			want = append(want, string(value))
		}
		var got []string
		for element := range Elements(array) {
			got = append(got, string(element))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: elements %q, want %q", array, got, want)
		}
	})
}
