package agui

import "testing"

// memberOf finds a member by its name as it reads, escaped or not, in an
// object with white space before it.
func TestMemberOf(t *testing.T) {
	object := []byte(` {"a":1, "sc\u0065nario" : "x" ,"b":{"scenario":2}}`)
	for name, want := range map[string]string{"a": "1", "scenario": `"x"`, "b": `{"scenario":2}`, "c": ""} {
		if got := memberOf(object, name); string(got) != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
