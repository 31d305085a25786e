#!/usr/bin/python3
# The writer of "make check-ha" (scripts/check-ha.sh): inserts ledger rows,
# one transaction each, through whichever node is the leader (libpq picks
# the read-write one of the hosts given), with synchronous_commit = on, and
# records each row whose COMMIT returned, with the time and the port of the
# server that acknowledged it, in the file given: "ID EPOCH PORT".  A failed COMMIT is not recorded: its row may or may not
# exist, and counts for nothing.  Runs until the stop file appears.
#
# usage: ha-writer.py DSN ACKED-FILE STOP-FILE
import os
import sys
import time

import psycopg2

dsn, acked_path, stop_path = sys.argv[1:4]
next_id = 1
conn = None
with open(acked_path, "a", buffering=1) as acked:
    while not os.path.exists(stop_path):
        try:
            if conn is None:
                conn = psycopg2.connect(dsn, connect_timeout=2,
                                        target_session_attrs="read-write")
                with conn.cursor() as cur:
                    cur.execute("SET synchronous_commit = on")
                conn.commit()
            with conn.cursor() as cur:
                cur.execute("INSERT INTO ledger (id) VALUES (%s)", (next_id,))
            conn.commit()
            acked.write("%d %.3f %d\n" % (next_id, time.time(), conn.info.port))
        except psycopg2.Error:
            # The row may have been committed; a new id keeps the accounts
            # apart.
            try:
                if conn is not None:
                    conn.close()
            except psycopg2.Error:
                pass
            conn = None
            time.sleep(0.1)
        next_id += 1
