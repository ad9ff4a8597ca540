// Drives the official JavaScript client, @linode/api-v4, against a pocketforge appliance:
// e2e/databases_test.go runs it with PF_URL (the appliance's base URL) and PF_TOKEN. The client
// has no base-URL setter; as Cloud Manager does, an axios interceptor on its baseRequest points
// its absolute https://api.linode.com URLs at the appliance. Its database calls use the real
// service's paths (/v4beta/databases/mysql/…), which the appliance accepts as aliases of sqldb.
// Prints one JSON object with what it read; exits non-zero on any error.
import { baseRequest, getDatabaseCredentials, getEngineDatabase, getEngineDatabases, setToken } from '@linode/api-v4';

const base = process.env.PF_URL;
const token = process.env.PF_TOKEN;
if (!base || !token) {
  console.error('PF_URL and PF_TOKEN must be set');
  process.exit(2);
}
const paths = [];
baseRequest.interceptors.request.use((config) => {
  config.url = config.url.replace(/^https:\/\/api\.linode\.com/, base);
  paths.push(new URL(config.url).pathname);
  return config;
});
setToken(token);

try {
  const list = await getEngineDatabases('mysql');
  const id = list.data.find((d) => d.engine === 'mysql' && d.status === 'active').id;
  const db = await getEngineDatabase('mysql', id);
  const creds = await getDatabaseCredentials('mysql', id);
  console.log(JSON.stringify({ paths, results: list.results, id: db.id, label: db.label, engine: db.engine, username: creds.username, password: creds.password.length > 0 }));
} catch (err) {
  const body = err && err.response ? JSON.stringify(err.response.data) : '';
  console.error('api-v4 call failed:', err && err.message ? err.message : err, body);
  process.exit(1);
}
