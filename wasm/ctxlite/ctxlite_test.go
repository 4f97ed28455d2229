package ctxlite

import (
	"context"
	"errors"
	"testing"
	"time"
)

func closed(ctx Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

func TestCancelEndsTheContextAndItsChildrenOnly(t *testing.T) {
	parent, cancelParent := WithCancel(Background())
	defer cancelParent()
	a, cancelA := WithCancel(parent)
	b, cancelB := WithCancel(parent)
	defer cancelB()
	grand, cancelGrand := WithCancel(a)
	defer cancelGrand()

	cancelA()
	if !closed(a) || !closed(grand) || !errors.Is(grand.Err(), Canceled) {
		t.Fatalf("cancelling a: a done %v, grandchild done %v err %v", closed(a), closed(grand), grand.Err())
	}
	if closed(parent) || closed(b) || b.Err() != nil {
		t.Fatal("cancelling a child ended its parent or its sibling")
	}
	if n := len(parent.(*cancelCtx).children); n != 1 {
		t.Fatalf("parent still holds %d children after one was cancelled, want 1 (a leak)", n)
	}
	cancelA() // again: nothing
	cancelParent()
	if !closed(b) || !errors.Is(b.Err(), Canceled) {
		t.Fatal("cancelling the parent did not reach the other child")
	}
}

func TestChildOfAnEndedParentStartsEnded(t *testing.T) {
	parent, cancel := WithCancel(Background())
	cancel()
	child, cancelChild := WithCancel(parent)
	defer cancelChild()
	if !closed(child) || child.Err() == nil {
		t.Fatal("a child of a cancelled context is live")
	}
}

func TestStandardParentPropagatesItsError(t *testing.T) {
	std, cancel := context.WithCancelCause(context.Background())
	child, cancelChild := WithCancel(std)
	defer cancelChild()
	cancel(errors.New("gone"))
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a standard parent's cancellation never reached the child")
	}
	if !errors.Is(child.Err(), context.Canceled) {
		t.Fatalf("child err %v, want the parent's (context.Canceled)", child.Err())
	}
}

func TestBackgroundNeverEnds(t *testing.T) {
	if Background().Done() != nil || Background().Err() != nil {
		t.Fatal("Background can end")
	}
	ctx, cancel := WithCancel(Background())
	if closed(ctx) || ctx.Err() != nil {
		t.Fatal("a fresh context is done")
	}
	cancel()
	if !closed(ctx) || ctx.Err() != Canceled {
		t.Fatalf("after cancel: err %v", ctx.Err())
	}
}

func TestWithTimeoutEndsByItself(t *testing.T) {
	ctx, cancel := WithTimeout(Background(), 1) // 1 ns
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the timeout never ended the context")
	}
	ctx2, cancel2 := WithTimeout(Background(), 1<<62)
	cancel2()
	if !closed(ctx2) {
		t.Fatal("cancel did not end a context with a timeout")
	}
}
