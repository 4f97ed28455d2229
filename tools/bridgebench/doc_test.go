// Package bridgebench holds the bridge budget table
// (TestBridgeTable, task bench:table): the agent and the relay in front of
// it measured beside a bare stdio pipe and a minimal Go bridge (minbridge),
// all to the same echo server, as separate processes built from this tree.
// It is test code only; nothing imports it.
package bridgebench
