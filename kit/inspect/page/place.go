package page

import (
	"net/url"
	"strconv"
)

// The URL's fragment keeps the selection, "#run=3&event=5", so that a
// reload shows the same run at the same event.

func placeHash(id string, cursor int) string {
	if id == "" {
		return ""
	}
	v := url.Values{"run": {id}}
	if cursor >= 0 {
		v.Set("event", strconv.Itoa(cursor))
	}
	return "#" + v.Encode()
}

// readPlace is the run and event a fragment names; cursor -1 when it
// names no event.
func readPlace(hash string) (id string, cursor int) {
	if len(hash) > 0 && hash[0] == '#' {
		hash = hash[1:]
	}
	v, err := url.ParseQuery(hash)
	if err != nil {
		return "", -1
	}
	cursor, err = strconv.Atoi(v.Get("event"))
	if err != nil || cursor < -1 {
		cursor = -1
	}
	return v.Get("run"), cursor
}
