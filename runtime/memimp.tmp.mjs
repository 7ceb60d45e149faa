const g=()=>{globalThis.gc?.();const u=process.memoryUsage();return u};
const a=g(); const t=performance.now(); if (process.argv[2]) await import(process.argv[2]); const b=g();
const f=(k)=>((b[k]-a[k])/2**20).toFixed(1);
console.log((process.argv[2]??'').padEnd(40), 'rss +'+f('rss'), 'heapTotal +'+f('heapTotal'),'heapUsed +'+f('heapUsed'), 'ext +'+f('external'), (performance.now()-t).toFixed(0)+'ms', 'rss', (b.rss/2**20).toFixed(1))
