// offline-directline's router on 127.0.0.1 and a free port (its own start command listens on
// every interface). Usage: node server.js BOT_URL. Prints "listening PORT" once ready.
"use strict";
const express = require("express");
const { getRouter } = require("offline-directline");

const botUrl = process.argv[2];
if (!botUrl) {
  console.error("usage: node server.js BOT_URL");
  process.exit(2);
}
const app = express();
const server = app.listen(0, "127.0.0.1", () => {
  const port = server.address().port;
  // The bot replies to this serviceUrl, so it must name the bound port.
  app.use(getRouter(`http://127.0.0.1:${port}`, botUrl));
  console.log(`listening ${port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
