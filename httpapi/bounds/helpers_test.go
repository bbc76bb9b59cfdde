package bounds_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/closerelay/closerelay/httpapi/bounds"
)

// The handlers the test files of this package serve.

// echoBody answers 200 with the body's length once it has read all of it,
// and 408 when the body did not arrive in time, as the API's JSON routes do.
func echoBody(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	switch {
	case errors.Is(err, bounds.ErrBodyTimeout):
		http.Error(w, "body too slow", http.StatusRequestTimeout)
	case err != nil:
		// the client is gone: nothing to answer
	default:
		fmt.Fprintf(w, "read %d bytes", len(b))
	}
}

// refuseAtOnce answers 429 without looking at the body, as a rate limit does.
func refuseAtOnce(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, "too many requests", http.StatusTooManyRequests)
}
