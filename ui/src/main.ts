/** The page's entry: defines <svc-app> (index.html holds one). */
import "./app.js";
