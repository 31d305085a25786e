#!/bin/bash
# git filter-branch --msg-filter: replace each commit's message by the
# concise one in $MSGDIR/NN.txt, found by subject in $MSGDIR/LIST.
msg=$(cat)
subject=$(printf '%s\n' "$msg" | head -n 1)
nn=$(awk -v s="$subject" '{ n = $1; $1 = ""; $2 = ""; sub(/^  /, ""); if ($0 == s) print n }' "$MSGDIR/LIST")
if [ -n "$nn" ] && [ -f "$MSGDIR/$nn.txt" ]; then
	cat "$MSGDIR/$nn.txt"
else
	printf '%s\n' "$msg"
fi
