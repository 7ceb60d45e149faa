// A small stand-in for web-platform-tests' testharness.js, written for svc (not copied from it):
// the `test`, `async_test`, `promise_test`, `setup`/`done` and `assert_*` functions the sampled
// files call, with the same meaning, as globals. After the file has run, `results(callback)`
// hands over every test's outcome once all have finished, or after HARNESS_TIMEOUT_MS with the
// rest timed out.
// The same text runs in the sandbox and on Node, so neither side gets a kinder harness.
var __conformance = (function () {
  var HARNESS_TIMEOUT_MS = 5000;
  var tests = [];
  var report;
  var reported = false;
  var loaded = false;
  var explicitDone = false;
  var doneCalled = false;
  var single;
  var serial = Promise.resolve();

  function describe(error) {
    if (error && typeof error === "object" && "message" in error) return String(error.name || "Error") + ": " + error.message;
    return String(error);
  }

  function Test(name) {
    this.name = name;
    this.status = undefined;
    this.message = "";
    this.cleanups = [];
    tests.push(this);
  }
  Test.prototype.step = function (fn, self) {
    if (this.status !== undefined) return undefined;
    try {
      return fn.apply(self === undefined ? this : self, Array.prototype.slice.call(arguments, 2));
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  };
  Test.prototype.step_func = function (fn, self) {
    var test = this;
    return function () {
      return test.step.apply(test, [fn, self === undefined ? this : self].concat(Array.prototype.slice.call(arguments)));
    };
  };
  Test.prototype.step_func_done = function (fn, self) {
    var test = this;
    return function () {
      if (fn) test.step.apply(test, [fn, self === undefined ? this : self].concat(Array.prototype.slice.call(arguments)));
      test.done();
    };
  };
  Test.prototype.unreached_func = function (description) {
    var test = this;
    return function () {
      test.fail(new Error("reached unreachable code: " + description));
    };
  };
  Test.prototype.step_timeout = function (fn, ms) {
    var test = this;
    var args = Array.prototype.slice.call(arguments, 2);
    return setTimeout(function () {
      test.step.apply(test, [fn, test].concat(args));
    }, ms);
  };
  Test.prototype.add_cleanup = function (fn) {
    this.cleanups.push(fn);
  };
  Test.prototype.done = function () {
    if (this.status === undefined) this.status = "PASS";
    this.finish();
  };
  Test.prototype.fail = function (error) {
    if (this.status === undefined) {
      this.status = "FAIL";
      this.message = describe(error);
    }
    this.finish();
  };
  Test.prototype.finish = function () {
    var cleanups = this.cleanups;
    this.cleanups = [];
    for (var i = 0; i < cleanups.length; i++) cleanups[i]();
    check();
  };

  function check() {
    if (reported || !loaded || !report) return;
    if (single && !doneCalled) return;
    if (explicitDone && !doneCalled) return;
    for (var i = 0; i < tests.length; i++) if (tests[i].status === undefined) return;
    finishAll();
  }

  function finishAll() {
    if (reported) return;
    reported = true;
    report(
      tests.map(function (test) {
        return { name: test.name, ok: test.status === "PASS", message: test.status === undefined ? "TIMEOUT" : test.message };
      }),
    );
  }

  function sameValue(a, b) {
    if (typeof a === "number" && typeof b === "number") return Object.is(a, b);
    return a === b;
  }
  function fail(message) {
    throw new Error(message);
  }

  var api = {
    setup: function (options) {
      if (options && options.single_test) single = new Test("(the whole file)");
      if (options && options.explicit_done) explicitDone = true;
    },
    done: function () {
      doneCalled = true;
      if (single) single.done();
      check();
    },
    test: function (fn, name) {
      var test = new Test(name === undefined ? "(unnamed)" : name);
      test.step(fn, test, test);
      test.done();
      return test;
    },
    async_test: function (fn, name) {
      if (typeof fn === "string") {
        name = fn;
        fn = undefined;
      }
      var test = new Test(name === undefined ? "(unnamed)" : name);
      if (fn) test.step(fn, test, test);
      return test;
    },
    promise_test: function (fn, name) {
      var test = new Test(name === undefined ? "(unnamed)" : name);
      serial = serial.then(function () {
        return new Promise(function (resolve) {
          var promise = test.step(fn, test, test);
          Promise.resolve(promise).then(
            function () {
              test.done();
              resolve();
            },
            function (error) {
              test.fail(error);
              resolve();
            },
          );
        });
      });
      return test;
    },
    assert_true: function (actual, description) {
      if (actual !== true) fail("assert_true: " + (description || "") + " expected true got " + String(actual));
    },
    assert_false: function (actual, description) {
      if (actual !== false) fail("assert_false: " + (description || "") + " expected false got " + String(actual));
    },
    assert_equals: function (actual, expected, description) {
      if (!sameValue(actual, expected))
        fail("assert_equals: " + (description || "") + " expected " + String(expected) + " but got " + String(actual));
    },
    assert_not_equals: function (actual, expected, description) {
      if (sameValue(actual, expected)) fail("assert_not_equals: " + (description || "") + " got disallowed value " + String(actual));
    },
    assert_array_equals: function (actual, expected, description) {
      if (actual.length !== expected.length)
        fail("assert_array_equals: " + (description || "") + " lengths differ, expected " + expected.length + " got " + actual.length);
      for (var i = 0; i < expected.length; i++) {
        if (!sameValue(actual[i], expected[i]))
          fail("assert_array_equals: " + (description || "") + " at index " + i + " expected " + String(expected[i]) + " got " + String(actual[i]));
      }
    },
    assert_in_array: function (actual, expected, description) {
      if (expected.indexOf(actual) === -1) fail("assert_in_array: " + (description || "") + " value " + String(actual) + " not in array");
    },
    assert_throws_js: function (constructor, fn, description) {
      try {
        fn();
      } catch (error) {
        if (!error || error.constructor !== constructor)
          fail("assert_throws_js: " + (description || "") + " expected " + constructor.name + " got " + describe(error));
        return;
      }
      fail("assert_throws_js: " + (description || "") + " did not throw");
    },
    assert_throws_dom: function (name, fn, description) {
      try {
        fn();
      } catch (error) {
        if (!error || error.name !== name) fail("assert_throws_dom: " + (description || "") + " expected " + name + " got " + describe(error));
        return;
      }
      fail("assert_throws_dom: " + (description || "") + " did not throw");
    },
    assert_unreached: function (description) {
      fail("assert_unreached: " + (description || "reached unreachable code"));
    },
    assert_class_string: function (object, expected, description) {
      var actual = Object.prototype.toString.call(object);
      if (actual !== "[object " + expected + "]") fail("assert_class_string: " + (description || "") + " got " + actual);
    },
    assert_own_property: function (object, name, description) {
      if (!Object.prototype.hasOwnProperty.call(object, name)) fail("assert_own_property: " + (description || "") + " no own " + name);
    },
  };

  return {
    api: api,
    /** Called once the file has run: `callback` gets the results when every test has finished. */
    results: function (callback, loadError) {
      report = callback;
      loaded = true;
      if (loadError !== undefined) {
        var harness = new Test("(the file ran to its end)");
        harness.fail(loadError);
      }
      setTimeout(finishAll, HARNESS_TIMEOUT_MS);
      check();
    },
  };
})();
// The files call these as globals.
for (var key in __conformance.api) globalThis[key] = __conformance.api[key];
module.exports = __conformance;
