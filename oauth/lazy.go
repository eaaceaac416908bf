package oauth

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// EnvTokenStore chooses where tokens are kept: auto, keyring or file.
const EnvTokenStore = "MCPCLI_TOKEN_STORE"

// OpenStoreFromEnv is OpenStore with the backend $MCPCLI_TOKEN_STORE
// names; what cannot be used is a *StoreChoiceError.
func OpenStoreFromEnv(opts StoreOptions) (Store, error) {
	opts.Backend = opts.Getenv(EnvTokenStore)
	store, err := OpenStore(opts)
	if err != nil {
		return nil, &StoreChoiceError{Err: err}
	}
	return store, nil
}

// StoreChoiceError is a token store that cannot be used.
type StoreChoiceError struct{ Err error }

func (e *StoreChoiceError) Error() string { return "$" + EnvTokenStore + ": " + e.Err.Error() }
func (e *StoreChoiceError) Unwrap() error { return e.Err }

// LazyStore is a Store opened (by open) when a server first needs it. A
// store that cannot be opened keeps nothing: a server that wants no
// sign-in does not notice, and one that does is signed in to for this run
// only, with a notice that says why.
func LazyStore(open func() (Store, error)) Store { return &lazyStore{open: open} }

type lazyStore struct {
	open func() (Store, error)
	once sync.Once
	s    Store
	err  error
}

func (l *lazyStore) get() (Store, error) {
	l.once.Do(func() { l.s, l.err = l.open() })
	return l.s, l.err
}

func (l *lazyStore) Load(server string) (*Entry, error) {
	s, err := l.get()
	if err != nil {
		return nil, nil
	}
	return s.Load(server)
}

func (l *lazyStore) Save(server string, e *Entry) error {
	s, err := l.get()
	if err != nil {
		return err
	}
	return s.Save(server, e)
}

func (l *lazyStore) Delete(server string) error {
	s, err := l.get()
	if err != nil {
		return err
	}
	return s.Delete(server)
}

func (l *lazyStore) Where() string {
	s, err := l.get()
	if err != nil {
		return "nowhere (" + err.Error() + ")"
	}
	return s.Where()
}

// SameOriginPosts, as an http.Client's CheckRedirect, lets the sign-in's own requests follow a redirect
// that sends nothing along: a GET (metadata), or any request within its
// origin. A request with a body (registration, the code exchange, a
// refresh: the code, the verifier, the client secret) is not carried to
// another origin by a 307 or 308.
func SameOriginPosts(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return fmt.Errorf("stopped after %d redirects", len(via))
	}
	prev := via[len(via)-1].URL
	if req.Method != http.MethodGet && (!strings.EqualFold(req.URL.Scheme, prev.Scheme) || !strings.EqualFold(req.URL.Host, prev.Host)) {
		return fmt.Errorf("the authorization server redirected a %s from %s to another origin, %s; mcpcli does not send the sign-in's secrets there", req.Method, prev.Host, req.URL.Host)
	}
	return nil
}
