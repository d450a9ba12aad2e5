;; Differential-test driver: runs many plain-Clojure programs in ONE JVM.
;;
;; Usage: java -cp clojure.jar clojure.main driver.clj TIMEOUT_MS FILE.clj...
;;
;; Each program is loaded with `load-file` in a fresh `user` namespace (clojure.core
;; referred; str/string -> clojure.string, set -> clojure.set,
;; walk -> clojure.walk aliased, as ptc resolves them without `require`).
;; Its output (println …) is captured, and its final value printed with `pr`.
;; One JSON object per program is written to stdout, one per line:
;;   {"name": FILE, "ok": true,  "out": PRINTED-TEXT, "value": PR-TEXT, "ms": N}
;;   {"name": FILE, "ok": false, "out": PRINTED-TEXT, "error": CLASS: MESSAGE, "ms": N}

(ns difftest.driver
  (:require clojure.string clojure.set clojure.walk))

(defn- json-str
  "A JSON string literal for s."
  [^String s]
  (let [sb (StringBuilder. "\"")]
    (doseq [c s]
      (case c
        \" (.append sb "\\\"")
        \\ (.append sb "\\\\")
        \newline (.append sb "\\n")
        \return (.append sb "\\r")
        \tab (.append sb "\\t")
        (if (or (< (int c) 0x20) (= (int c) 0x7f))
          (.append sb (format "\\u%04x" (int c)))
          (.append sb c))))
    (.append sb "\"")
    (str sb)))

(defn- root-cause [^Throwable e]
  ;; load-file wraps exceptions in CompilerException: report the real one.
  (loop [e e]
    (if (and (instance? clojure.lang.Compiler$CompilerException e) (.getCause e))
      (recur (.getCause e))
      e)))

(defn- describe-error [^Throwable e]
  (let [e (root-cause e)]
    (str (.getName (class e)) ": " (.getMessage e))))

(defn- fresh-ns
  "A new, empty `user` namespace (the previous program's one is removed)."
  []
  (remove-ns 'user)
  (let [ns (create-ns 'user)]
    (binding [*ns* ns]
      (refer-clojure)
      (alias 'str 'clojure.string)
      (alias 'string 'clojure.string)
      (alias 'set 'clojure.set)
      (alias 'walk 'clojure.walk))
    ns))

(defn- pr-value
  "pr-text of v, written straight to a StringWriter so that prints done while
  realizing lazy seqs still go to the program's output, not into the value."
  [v]
  (let [sw (java.io.StringWriter.)]
    (binding [*print-length* nil
              *print-level* nil
              *print-meta* false
              *print-namespace-maps* false
              *print-readably* true]
      (print-method v sw))
    (str sw)))

(defn- run-one [path timeout-ms]
  (let [ns (fresh-ns)
        out (java.io.StringWriter.)
        start (System/nanoTime)
        thread (promise)
        fut (future
              (deliver thread (Thread/currentThread))
              (binding [*ns* ns
                        *out* out]
                (try
                  (let [v (load-file path)]
                    {:ok true :value (pr-value v)})
                  (catch Throwable e
                    {:ok false :error (describe-error e)}))))
        r (deref fut timeout-ms ::timeout)
        ms (quot (- (System/nanoTime) start) 1000000)]
    (when (= r ::timeout)
      (future-cancel fut)
      ;; A busy loop ignores interruption: stop the thread where the JVM
      ;; still allows it, so it does not slow down the programs after it.
      (try (.stop ^Thread @thread) (catch Throwable _ nil)))
    (let [r (if (= r ::timeout)
              {:ok false :error (str "timeout after " timeout-ms " ms")}
              r)]
      (str "{\"name\": " (json-str path)
           ", \"ok\": " (:ok r)
           ", \"out\": " (json-str (str out))
           (if (:ok r)
             (str ", \"value\": " (json-str (:value r)))
             (str ", \"error\": " (json-str (:error r))))
           ", \"ms\": " ms "}"))))

(let [[timeout & files] *command-line-args*
      timeout (Long/parseLong timeout)]
  (doseq [f files]
    (println (run-one f timeout))
    (flush))
  (shutdown-agents)
  (System/exit 0))
