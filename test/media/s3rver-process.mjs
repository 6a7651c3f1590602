// s3rver in a process of its own, started with OpenSSL's legacy provider:
// s3rver makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3
// refuses otherwise — so a listing longer than one page (1,000 keys) fails
// in a test's own process. Prints `{"port":…}` once listening; stops when
// its standard input ends (the test closed it, or the test's process died).
// Arguments: the folder for the objects, the bucket to make.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  server.httpServer?.closeAllConnections();
  await server.close();
  process.exit(0);
});
