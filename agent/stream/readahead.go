package stream

// readAhead is the one read left pending on the socket while a server is
// installed. It is how the install notices a browser that leaves (the read
// ends with the socket, and the install is cancelled), and it is never
// repeated: if a message arrives instead, it is kept, and the bridge
// forwards it first. A client may send initialize as soon as it sees
// "installing"; that message is neither lost nor raced by a second reader.
type readAhead struct {
	done chan struct{} // closed once in is set
	in   inbound
}

// startReadAhead starts the pending read. The socket closing always ends
// it, so every path that closes the socket may wait for it.
func (s *session) startReadAhead() *readAhead {
	r := &readAhead{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.in = s.readInbound()
	}()
	s.ahead = r
	return r
}

// wait returns the read's result once there is one.
func (r *readAhead) wait() inbound {
	<-r.done
	return r.in
}

// takeReadAhead hands the pending read, if any, to its one consumer.
func (s *session) takeReadAhead() *readAhead {
	r := s.ahead
	s.ahead = nil
	return r
}

// dropReadAhead waits for a pending read nobody consumed, after the socket
// was closed, and returns its buffer: the session ends with no goroutine
// of its own still running.
func (s *session) dropReadAhead() {
	if r := s.takeReadAhead(); r != nil {
		if in := r.wait(); in.buf != nil {
			putBuf(in.buf)
		}
	}
}
