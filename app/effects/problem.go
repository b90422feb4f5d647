package effects

import (
	"fmt"
	"net/http"
)

// refused describes a refused request by its status and problem+json.
func refused(status int, p problem) error {
	title := p.Title
	if title == "" {
		title = http.StatusText(status)
	}
	reason := fmt.Sprintf("HTTP %d %s", status, title)
	if p.Detail != "" {
		reason += ": " + p.Detail
	}
	return fmt.Errorf("%s", reason)
}

// problem is the part of an RFC 9457 body the client shows.
type problem struct {
	Title  string `json:"title"`
	Detail string `json:"detail"`
}
