package wire

import "testing"

func TestHeartbeatFrame(t *testing.T) {
	b := AppendHeartbeat(nil, 42)
	if string(b) != `{"heartbeat":42}` {
		t.Fatalf("AppendHeartbeat = %s", b)
	}
	if !IsHeartbeatFrame(b) || !IsHeartbeatFrame([]byte(" \n"+string(b))) {
		t.Fatal("a heartbeat is one")
	}
	for _, f := range []string{`{"jsonrpc":"2.0","method":"heartbeat"}`, `{"status":"ready"}`, `{"files":[]}`, ``, `{"heart`} {
		if IsHeartbeatFrame([]byte(f)) {
			t.Errorf("%q is no heartbeat", f)
		}
	}
	if n, ok := HeartbeatNumber(b); !ok || n != 42 {
		t.Fatalf("HeartbeatNumber = %d, %v", n, ok)
	}
	for _, f := range []string{`{"heartbeat":}`, `{"heartbeat":"1"}`, `{"heartbeat":1`, `{"heartbeat":1,"x":2}`, `{"heartbeat":99999999999999999999999}`} {
		if _, ok := HeartbeatNumber([]byte(f)); ok {
			t.Errorf("%q has no number", f)
		}
	}
}
