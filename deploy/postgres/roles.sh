#!/bin/sh
# The installation's two PostgreSQL roles and its database (docs/security.md, "History that
# cannot be removed"), run once by a superuser:
#
#   casino_owner  owns the database and every table; runs `manage.py migrate`, then
#                 `manage.py db_grant_app_role casino_app`. Never used by the application.
#   casino_app    the application (web, worker, beat): LOGIN, NOSUPERUSER, NOBYPASSRLS, owns
#                 nothing; SELECT and INSERT on the history, ordinary writes elsewhere (given by
#                 db_grant_app_role after each migrate). It cannot TRUNCATE, UPDATE or DELETE
#                 the history, nor disable or drop its triggers.
#
# docker compose runs it at the first start of the postgres service (docker-entrypoint-initdb.d).
# By hand: PGHOST=... PGUSER=postgres CASINO_OWNER_PASSWORD=... CASINO_APP_PASSWORD=... \
#          sh deploy/postgres/roles.sh
# Running it again changes nothing but the passwords.
set -eu

: "${CASINO_OWNER_PASSWORD:?set CASINO_OWNER_PASSWORD, the password of casino_owner}"
: "${CASINO_APP_PASSWORD:?set CASINO_APP_PASSWORD, the password of casino_app}"
CASINO_DB="${CASINO_DB:-casino}"

psql -v ON_ERROR_STOP=1 -d postgres \
    -v owner_password="$CASINO_OWNER_PASSWORD" -v app_password="$CASINO_APP_PASSWORD" \
    -v db="$CASINO_DB" <<'SQL'
SELECT NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'casino_owner') AS make_owner \gset
\if :make_owner
CREATE ROLE casino_owner LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB;
\endif
SELECT NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'casino_app') AS make_app \gset
\if :make_app
CREATE ROLE casino_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB NOINHERIT;
\endif
ALTER ROLE casino_owner PASSWORD :'owner_password';
ALTER ROLE casino_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB PASSWORD :'app_password';
SELECT NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') AS make_db \gset
\if :make_db
CREATE DATABASE :"db" OWNER casino_owner;
\endif
\connect :"db"
-- Only the two roles connect; only the owner creates objects (migrate).
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO casino_owner, casino_app;
ALTER SCHEMA public OWNER TO casino_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO casino_app;
SQL
