package mailer

import (
	"net"
	"sync"
	"time"
)

// MaxSMTPConnections bounds the subscribe-mail receiver's open sessions: a
// connection past it is answered "421 too many connections" and closed,
// so idle sessions cannot hold the receiver for everyone else.
const MaxSMTPConnections = 64

// limitListener hands out at most max connections at a time; the others
// are told 421 and closed at once.
type limitListener struct {
	net.Listener
	mu       sync.Mutex
	open     int
	max      int
	hostname string
}

func newLimitListener(l net.Listener, max int, hostname string) *limitListener {
	return &limitListener{Listener: l, max: max, hostname: hostname}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if l.open >= l.max {
			l.mu.Unlock()
			go refuse(c, l.hostname)
			continue
		}
		l.open++
		l.mu.Unlock()
		return &countedConn{Conn: c, l: l}, nil
	}
}

// refuse answers a connection past the limit with 421 (RFC 5321 §3.8:
// the service is not available, try again later) and closes it.
func refuse(c net.Conn, hostname string) {
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = c.Write([]byte("421 4.7.0 " + hostname + " too many connections; try again later\r\n"))
	_ = c.Close()
}

type countedConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
